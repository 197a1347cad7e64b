import FuzzDriver
import Passmint

/// PNG images: decoded with a real decoder under a pixel-count cap, as lint and verify do.
runFuzzer { data, size in
    _ = try? PNGInfo(bytes: Array(UnsafeBufferPointer(start: data, count: size)), file: "fuzz.png")
    return 0
}
