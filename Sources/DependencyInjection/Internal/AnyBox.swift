// A made value of any type in one non-generic class, its bytes in the object's tail allocation.
//
// Invariant: an `AnyBox` is made only by `holding(_:)`, which initializes one `Value` at the first
// `Value`-aligned address of its bytes (it allocates enough for any alignment) and records
// `Value.self` in the header, which nothing writes again. `value(as:)` reads that address as a `T`
// only when `T.self` is that type (and traps otherwise), and `deinit` destroys it as that type.
//
// The number it buys (callgrind, perf4 in Benchmarks/History.md): a first resolve of a first-time
// type 9,482 -> 5,854 instructions, and app launch's resolves 16,753 -> 9,696 per service, over a
// generic `Box<Value>` class, whose metadata was made for each type and looked up by mangled name
// at every call site that cast to it (7,200 instructions per service of app launch).

/// A made value of any type, as the container keeps and hands it out, with the type it was made as.
///
/// One class for every type: a value of a type seen for the first time makes no generic metadata.
/// Handing it back as the type asked for is a comparison of `type` and a copy.
@usableFromInline
final class AnyBox: ManagedBuffer<AnyBox.Header, UInt8> {
    @usableFromInline
    struct Header {
        /// The type of the value in the bytes.
        @usableFromInline let type: any Any.Type
        @usableFromInline init(type: any Any.Type) { self.type = type }
    }

    @inlinable
    static func holding<Value>(_ value: Value) -> AnyBox {
        let size = MemoryLayout<Value>.size + MemoryLayout<Value>.alignment
        let box = unsafeDowncast(create(minimumCapacity: size) { _ in Header(type: Value.self) }, to: AnyBox.self)
        box.withUnsafeMutablePointerToElements { address(of: Value.self, in: $0).initialize(to: value) }
        return box
    }

    @inlinable
    static func address<Value>(of _: Value.Type, in bytes: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<Value> {
        UnsafeMutableRawPointer(bytes).alignedUp(for: Value.self).assumingMemoryBound(to: Value.self)
    }

    /// Whether the value is a `T` (exactly: an `any P` value is not a value of its dynamic type).
    @inlinable
    func holds<T>(_: T.Type) -> Bool {
        withUnsafeMutablePointerToHeader { ObjectIdentifier($0.pointee.type) == ObjectIdentifier(T.self) }
    }

    /// A copy of the value, which must be a `T` (see ``holds(_:)``).
    @inlinable
    func value<T>(as _: T.Type) -> T {
        withUnsafeMutablePointers { header, bytes in
            guard ObjectIdentifier(header.pointee.type) == ObjectIdentifier(T.self) else {
                preconditionFailure("DependencyInjection: a \(header.pointee.type) is not a \(T.self).")
            }
            return Self.address(of: T.self, in: bytes).pointee
        }
    }

    /// The value as an `Any`, for what its dynamic type is (`type(of:)` sees through an `any P`).
    var anyValue: Any {
        func opened<T>(_: T.Type) -> Any { value(as: T.self) }
        return withUnsafeMutablePointerToHeader { opened($0.pointee.type) }
    }

    deinit {
        withUnsafeMutablePointers { header, bytes in
            func destroy<Value>(_: Value.Type) { Self.address(of: Value.self, in: bytes).deinitialize(count: 1) }
            destroy(header.pointee.type)
        }
    }
}
