import Foundation
import Passmint

/// Reads one image file a batch cell names, as ``BatchImageFiles`` allows: the path resolved (symbolic links
/// followed) must lie inside the data file's folder or an allowed folder; the file is opened without blocking (a FIFO
/// cannot hang the batch), must be a regular file (not a device such as `/dev/zero`), and its size on disk (`fstat`)
/// must be at most the limit before anything is read; the read itself stops at the limit, should the file grow.
struct ImageFileReader: Sendable {
    let folder: String
    let allowedFolders: [String]
    let maximumBytes: Int

    /// The bytes of the file `relative` names. `label` (column and path) starts every error.
    func contents(of relative: String, label: String) throws(PassmintError) -> [UInt8] {
        let absolute = relative.hasPrefix("/")
        let roots = (absolute ? [] : [folder]) + allowedFolders
        let path = absolute ? relative : folder + "/" + relative
        guard let resolved = Self.resolved(path) else {
            let exists =
                FileManager.default.fileExists(atPath: path) || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
            throw PassmintError(
                .invalidImage,
                exists
                    ? "\(label): cannot resolve \(relative): give a PNG file inside the data file's folder"
                    : "\(label): no such file \(relative) (paths are relative to the data file's folder \(folder))")
        }
        guard roots.compactMap(Self.resolved).contains(where: { Self.path(resolved, isInside: $0) }) else {
            throw PassmintError(.invalidImage, "\(label): \(outsideMessage(relative, absolute: absolute))")
        }
        do {
            return try FileIO.readRegularFile(resolved, maximumBytes: maximumBytes)
        } catch {
            throw PassmintError(.invalidImage, "\(label): \(refusal(error, relative: relative))")
        }
    }

    /// The refusal of ``FileIO/readRegularFile(_:maximumBytes:)`` as the end of a cell's error.
    private func refusal(_ refusal: FileIO.RegularFileRefusal, relative: String) -> String {
        switch refusal {
        case .missing: "no such file \(relative) (paths are relative to the data file's folder \(folder))"
        case .symbolicLink, .notRegular: "\(relative) is not a regular file (a device, FIFO, socket or folder): name a PNG file"
        case .tooLarge(let size):
            "\(relative) is \(size) bytes, more than the \(maximumBytes) bytes an image may have: export it at the size Wallet shows"
        case .grew: "\(relative) grew past the \(maximumBytes) bytes an image may have while it was read"
        case .failed(let code): "cannot read \(relative): \(FileIO.RegularFileRefusal.reason(code))"
        }
    }

    private func outsideMessage(_ relative: String, absolute: Bool) -> String {
        let allowed = allowedFolders.isEmpty ? "" : " or in \(allowedFolders.joined(separator: ", "))"
        if absolute {
            return
                "\(relative) is an absolute path outside the folders images may come from\(allowed.isEmpty ? "" : " (\(allowedFolders.joined(separator: ", ")))"): "
                + "give a path relative to the data file's folder, or allow its folder with --images-from"
        }
        return "\(relative) leads outside the data file's folder\(allowed): move the image into it, or allow its folder with --images-from"
    }

    /// The path with every symbolic link, `.` and `..` resolved; nil when it does not exist.
    static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    static func path(_ path: String, isInside folder: String) -> Bool {
        folder == "/" || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }
}
