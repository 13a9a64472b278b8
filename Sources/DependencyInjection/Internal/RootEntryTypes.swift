#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// The class of the root entry for each registered type, remembered per thread.
///
/// A registration makes a `RootEntry<Value>`, a generic class, and the runtime finds the
/// metadata of `RootEntry<Value>` in a global hash table on every allocation where `Value` is
/// not known at compile time (`makeRootEntry` is not specialized): tens of nanoseconds, a large
/// share of a registration. This table answers from the calling thread's own memory, so it
/// needs no lock: metadata pointers never change and are never freed.
enum RootEntryTypes {
    /// The class of the root entry for `Value`.
    static func rootEntryType<Value>(for value: Value.Type) -> RootEntry<Value>.Type {
        let table = Table.current
        let valueType = UnsafeRawPointer(bitPattern: UInt(bitPattern: ObjectIdentifier(Value.self))).unsafelyUnwrapped
        if let known = table.lookUp(valueType) {
            // Stored from `RootEntry<Value>.self` under `Value`'s metadata below.
            return unsafeBitCast(known, to: RootEntry<Value>.Type.self)
        }
        let type = RootEntry<Value>.self
        table.insert(unsafeBitCast(type, to: UnsafeRawPointer.self), for: valueType)
        return type
    }

    /// An open-addressing table from a type's metadata to its root entry's class metadata.
    final class Table {
        private var keys: UnsafeMutablePointer<UnsafeRawPointer?>
        private var values: UnsafeMutablePointer<UnsafeRawPointer>
        private var mask: Int
        private var count = 0

        private static let key: pthread_key_t = {
            var key = pthread_key_t()
            // The thread's table is released when the thread exits.
            #if canImport(Darwin)
                let status = pthread_key_create(&key) { Unmanaged<Table>.fromOpaque($0).release() }
            #else
                let status = pthread_key_create(&key) { pointer in
                    if let pointer { Unmanaged<Table>.fromOpaque(pointer).release() }
                }
            #endif
            precondition(status == 0, "DependencyInjection: pthread_key_create failed (\(status)).")
            return key
        }()

        /// This thread's table, made on first use.
        static var current: Table {
            if let pointer = pthread_getspecific(key) {
                return Unmanaged<Table>.fromOpaque(pointer).takeUnretainedValue()
            }
            let table = Table(capacity: 64)
            pthread_setspecific(key, Unmanaged.passRetained(table).toOpaque())
            return table
        }

        private init(capacity: Int) {
            keys = .allocate(capacity: capacity)
            keys.initialize(repeating: nil, count: capacity)
            values = .allocate(capacity: capacity)
            mask = capacity - 1
        }

        deinit {
            keys.deallocate()
            values.deallocate()
        }

        private static func hash(_ key: UnsafeRawPointer) -> Int {
            Int(bitPattern: (UInt(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 17)
        }

        func lookUp(_ key: UnsafeRawPointer) -> UnsafeRawPointer? {
            var index = Self.hash(key) & mask
            while let candidate = keys[index] {
                if candidate == key { return values[index] }
                index = (index &+ 1) & mask
            }
            return nil
        }

        func insert(_ value: UnsafeRawPointer, for key: UnsafeRawPointer) {
            if (count + 1) * 2 > mask + 1 { grow() }
            var index = Self.hash(key) & mask
            while keys[index] != nil { index = (index &+ 1) & mask }
            keys[index] = key
            values[index] = value
            count += 1
        }

        private func grow() {
            let oldKeys = keys
            let oldValues = values
            let oldCapacity = mask + 1
            keys = .allocate(capacity: oldCapacity * 2)
            keys.initialize(repeating: nil, count: oldCapacity * 2)
            values = .allocate(capacity: oldCapacity * 2)
            mask = oldCapacity * 2 - 1
            count = 0
            for index in 0..<oldCapacity {
                if let key = oldKeys[index] { insert(oldValues[index], for: key) }
            }
            oldKeys.deallocate()
            oldValues.deallocate()
        }
    }
}
