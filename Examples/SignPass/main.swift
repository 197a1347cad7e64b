import Foundation
import Passmint

// Signs one pass from a template folder, with the Passmint product alone: what an app that only issues passes needs.
//
//     passmint-example-sign TEMPLATE.pass SIGNER.pem SIGNER.key WWDR.pem OUT.pkpass [name=value ...]
//
// Each name=value fills the template's {{name}} placeholder (as a string).

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 5 else {
    FileHandle.standardError.write(
        Data("usage: passmint-example-sign TEMPLATE.pass SIGNER.pem SIGNER.key WWDR.pem OUT.pkpass [name=value ...]\n".utf8))
    exit(64)
}
var data = JSONObject()
for pair in arguments.dropFirst(5) {
    guard let equals = pair.firstIndex(of: "=") else {
        FileHandle.standardError.write(Data("passmint-example-sign: \(pair) is not name=value\n".utf8))
        exit(64)
    }
    data[String(pair[..<equals])] = .string(String(pair[pair.index(after: equals)...]))
}
do {
    let identity = try SigningIdentity(
        certificatePath: arguments[1], keyPath: arguments[2], passphrase: nil, wwdrPath: arguments[3])
    let pass = try PassBuilder(identity: identity).sign(PassInput(template: try PassTemplate(folder: arguments[0]), data: data))
    for warning in pass.warnings { print("warning: \(warning)") }
    try FileIO.writeAtomically(pass.archive, to: arguments[4])
    print("wrote \(arguments[4]) (\(pass.archive.count) bytes)")
} catch {
    FileHandle.standardError.write(Data("passmint-example-sign: \(error)\n".utf8))
    exit(1)
}
