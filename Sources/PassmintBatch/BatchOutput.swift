import Passmint

/// Where a batch puts its passes.
public enum BatchOutput: Sendable, Equatable {
    /// One `<serial>.pkpass` file per pass in ``BatchOptions/outputFolder`` (the default).
    case folder
    /// One ZIP archive of `.pkpass` entries, stored, written as the passes are made; resumable (`PassArchiveWriter`).
    case archive(path: String)
    /// A tar stream of `.pkpass` entries on a file descriptor (standard output), the report last (`PassTarWriter`).
    case tarStream(fileDescriptor: Int32)
}
