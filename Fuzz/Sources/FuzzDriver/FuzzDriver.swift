#if canImport(Glibc)
    import Glibc
#endif

@_silgen_name("LLVMFuzzerRunDriver")
private func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The fuzz target's one input at a time; set once, before the driver starts.
nonisolated(unsafe) private var target: ((UnsafePointer<UInt8>, Int) -> CInt)?

/// libFuzzer's entry point, for a link that keeps libFuzzer's own `main`: the input goes to the target set by
/// ``runFuzzer(_:)``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let target else { fatalError("runFuzzer was not called before libFuzzer's main") }
    let empty: [UInt8] = [0]
    return empty.withUnsafeBufferPointer { fallback in target(data ?? fallback.baseAddress!, size) }
}

/// Hands the process to libFuzzer, which calls `body` with each input (its bytes and count) and never returns.
/// (SwiftPM gives an executable target its own `main`, so the target starts libFuzzer's driver from there instead of
/// defining `LLVMFuzzerTestOneInput` for libFuzzer's `main`.)
public func runFuzzer(_ body: @escaping (UnsafePointer<UInt8>, Int) -> CInt) -> Never {
    target = body
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    let status = llvmFuzzerRunDriver(&argc, &argv) { data, size in fuzzerTestOneInput(data, size) }
    exit(status)
}
