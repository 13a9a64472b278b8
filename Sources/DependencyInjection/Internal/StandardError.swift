// Writes to standard error without Foundation and without buffering: the library's only output,
// for warnings (see `SlowFactory`).
//
// Invariant: the buffer handed to `write(2)` is the string's own UTF-8 storage, valid for the
// duration of the call that reads it, and only read.
//
// The number it buys: no Foundation (`FileHandle`) and no C `stderr` global, which Swift 6 reads
// as shared mutable state.

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

enum StandardError {
    /// Writes `text` to standard error (file descriptor 2), unbuffered.
    static func write(_ text: String) {
        var text = text
        text.withUTF8(writeToFileDescriptor2)
    }
}

/// A free function, so that `write` is the C library's, not ``StandardError/write(_:)``.
private func writeToFileDescriptor2(_ bytes: UnsafeBufferPointer<UInt8>) {
    _ = write(2, bytes.baseAddress, bytes.count)
}
