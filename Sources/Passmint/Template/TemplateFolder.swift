import Foundation

/// The one reader of template folders (`Name.pass/`, `Name.order/`) and the sample data beside them, for everything
/// that loads one: ``PassTemplate``, ``OrderTemplate``, lint's ``PassContents``, previews, `batch` and the service
/// (at start, on publish, for previews). A template folder may come from anyone, and whatever it holds is shipped in
/// every pass, so:
///
/// - a symbolic link is refused, at the top or in a `.lproj` folder, and so is a `.lproj` folder that is one: it
///   could ship a signing key, `/proc/self/environ` or another folder (copy the file in instead);
/// - a file must be a regular file, opened without blocking: a FIFO cannot hang the reader, `/dev/zero` is refused
///   before a byte is read;
/// - each file's size on disk is checked against its kind's limit (``TemplateFileKind/maximumBytes``) before it is
///   read, and the folder against a pass's entries and total size (``ZipLimits/pass``);
/// - a file Wallet does not read is not read at all: its path is returned in ``Contents/unknown`` for the caller to
///   refuse (templates) or report (lint).
package enum TemplateFolder {
    /// What a template folder holds.
    package struct Contents: Sendable {
        /// `pass.json` or `order.json`, as its bytes.
        package var main: [UInt8]
        /// Every other file to ship (images, `.strings` files, `personalization.json`), sorted by path.
        package var files: [PassContents.File]
        /// `strings.json`, when the folder has one (read, never shipped).
        package var stringsJSON: [UInt8]?
        /// Paths of files Wallet does not read, sorted: they were not read.
        package var unknown: [String]
    }

    /// Names that are never part of a package: signing output and operating-system litter.
    package static let ignoredNames: Set<String> = ["manifest.json", "signature", ".DS_Store", "Thumbs.db", "desktop.ini"]

    /// Reads the template folder `folder` of `package`.
    ///
    /// - Throws: ``PassmintError/Code/invalidTemplate`` naming the file and what to do, when the folder or a file in
    ///   it breaks a rule above; ``PassmintError/Code/fileSystem`` when it cannot be listed or read.
    package static func read(_ folder: String, package: TemplateFileKind.Package) throws(PassmintError) -> Contents {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            let example = package == .pass ? "MyCard.pass/ holding pass.json" : "Shipment.order/ holding order.json"
            throw PassmintError(
                .invalidTemplate, "template folder \(folder) does not exist (a template is a folder such as \(example) and images)")
        }
        let main = try file(folder + "/" + package.mainFile, kind: .json, what: "\(package.mainFile) of the template")
        var contents = Contents(main: main, files: [], stringsJSON: nil, unknown: [])
        var total = main.count
        for path in try paths(in: folder, package: package) where path != package.mainFile {
            let kind = TemplateFileKind(path: path, in: package)
            guard kind != .unknown else {
                contents.unknown.append(path)
                continue
            }
            let bytes = try file(folder + "/" + path, kind: kind, what: "template file")
            total += bytes.count
            if total > ZipLimits.pass.maximumTotalBytes {
                throw PassmintError(
                    .invalidTemplate,
                    "\(folder) holds more than the \(PassBundle.megabytes(ZipLimits.pass.maximumTotalBytes)) a pass may hold "
                        + "(at \(path)): make its images smaller")
            }
            if path == TemplateStrings.fileName {
                contents.stringsJSON = bytes
            } else {
                contents.files.append(PassContents.File(path: path, bytes: bytes))
            }
        }
        return contents
    }

    /// Reads one file of a template folder, or the sample data beside it, under the rules above.
    ///
    /// - Throws: ``PassmintError/Code/invalidTemplate`` for a link, a file that is not a regular file or is too large;
    ///   ``PassmintError/Code/fileSystem`` when it is missing or cannot be read.
    package static func file(_ path: String, kind: TemplateFileKind, what: String) throws(PassmintError) -> [UInt8] {
        do {
            return try FileIO.readRegularFile(path, maximumBytes: kind.maximumBytes)
        } catch {
            switch error {
            case .missing: throw PassmintError(.fileSystem, "\(what) \(path) does not exist")
            case .symbolicLink: throw linkRefusal(path)
            case .notRegular: throw notRegularRefusal(path)
            case .tooLarge(let size):
                throw PassmintError(
                    .invalidTemplate,
                    "\(path) weighs \(PassBundle.megabytes(size)), more than the \(PassBundle.megabytes(kind.maximumBytes)) "
                        + "\(kind.noun) of a template may weigh: make it smaller")
            case .grew:
                throw PassmintError(
                    .invalidTemplate,
                    "\(path) grew past the \(PassBundle.megabytes(kind.maximumBytes)) \(kind.noun) of a template may weigh "
                        + "while it was read: leave the template alone while it loads")
            case .failed(let code):
                throw PassmintError(.fileSystem, "cannot read \(what) \(path): \(FileIO.RegularFileRefusal.reason(code))")
            }
        }
    }

    /// The paths of the files in the folder to read, relative to it and sorted: the top level and each `.lproj`
    /// folder, without ignored names; links, other folders and special files refused.
    private static func paths(in folder: String, package: TemplateFileKind.Package) throws(PassmintError) -> [String] {
        var paths: [String] = []
        for entry in try list(folder) {
            let path = folder + "/" + entry
            switch try type(path) {
            case S_IFREG: paths.append(entry)
            case S_IFDIR:
                guard entry.hasSuffix(".lproj") else {
                    throw PassmintError(
                        .invalidTemplate,
                        "\(path) is a folder, but \(package.noun) may only hold <language>.lproj folders (e.g. fr.lproj): "
                            + "move it out of the template")
                }
                for file in try list(path) {
                    let filePath = path + "/" + file
                    switch try type(filePath) {
                    case S_IFREG: paths.append(entry + "/" + file)
                    case S_IFDIR:
                        throw PassmintError(
                            .invalidTemplate, "\(filePath) is a folder inside a .lproj folder: Wallet only reads files there")
                    case S_IFLNK: throw linkRefusal(filePath)
                    default: throw notRegularRefusal(filePath)
                    }
                }
            case S_IFLNK: throw linkRefusal(path)
            default: throw notRegularRefusal(path)
            }
        }
        if paths.count > ZipLimits.pass.maximumEntries {
            throw PassmintError(
                .invalidTemplate,
                "\(folder) holds \(paths.count) files, more than the \(ZipLimits.pass.maximumEntries) \(package.noun) may hold")
        }
        return paths.sorted()
    }

    /// The names in a folder, without the ignored ones, sorted.
    private static func list(_ folder: String) throws(PassmintError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder).filter { !isIgnored($0) }.sorted()
        } catch {
            throw PassmintError(.fileSystem, "cannot list \(folder): \(error.localizedDescription)")
        }
    }

    private static func isIgnored(_ name: String) -> Bool {
        name.hasPrefix(".") || name == "__MACOSX" || ignoredNames.contains(name)
    }

    /// The file type (`S_IFREG`, `S_IFDIR`, `S_IFLNK`, …) of `path` itself, a link not followed.
    private static func type(_ path: String) throws(PassmintError) -> mode_t {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            throw PassmintError(.fileSystem, "cannot read \(path): \(FileIO.RegularFileRefusal.reason(errno))")
        }
        return status.st_mode & S_IFMT
    }

    private static func linkRefusal(_ path: String) -> PassmintError {
        PassmintError(
            .invalidTemplate,
            "\(path) is a symbolic link: Passmint follows no link in a template, so that no file from elsewhere is shipped "
                + "in every pass: copy the file itself into the template instead")
    }

    private static func notRegularRefusal(_ path: String) -> PassmintError {
        PassmintError(
            .invalidTemplate,
            "\(path) is not a regular file (a FIFO, a device or a socket): a template holds only files: put the file itself there")
    }
}
