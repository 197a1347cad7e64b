import Foundation
import FuzzDriver
import Passmint

/// The PKCS#7/CMS reader: `verify` on a pass whose `signature` entry is the input (its manifest and pass.json fixed).
let passJSON = Array(
    #"{"formatVersion":1,"serialNumber":"F","passTypeIdentifier":"pass.dev.fuzz","teamIdentifier":"FUZZTEAM01","organizationName":"F","description":"F","generic":{}}"#
        .utf8)
let manifest = Array(#"{"pass.json":"0000000000000000000000000000000000000000"}"#.utf8)

runFuzzer { data, size in
    let signature = Array(UnsafeBufferPointer(start: data, count: size))
    guard
        let archive = try? ZipArchive.make([
            ZipArchive.Entry(name: "pass.json", bytes: passJSON, compressed: false),
            ZipArchive.Entry(name: "manifest.json", bytes: manifest, compressed: false),
            ZipArchive.Entry(name: "signature", bytes: signature, compressed: false),
        ])
    else { return 0 }
    _ = PassVerifier().verify(archive, source: "fuzz.pkpass", lint: false, now: Date(timeIntervalSince1970: 1_800_000_000))
    return 0
}
