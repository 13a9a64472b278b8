/// An open-addressing hash table from `(type, name)` to the entry that serves it.
///
/// Resolution looks up one key on every call, so the table avoids `Hasher` (SipHash costs
/// tens of nanoseconds) and hashes the type's metadata address with a multiplicative mix.
/// Unnamed lookups, the hot path, compare a pointer and a `nil` name and never touch a string.
/// Slots are never removed one by one (registering again replaces the entry in place, `reset`
/// clears everything), so there are no tombstones.
@usableFromInline
struct RegistrationTable {
    @usableFromInline
    struct Slot {
        @usableFromInline var typeID: ObjectIdentifier?
        @usableFromInline var name: String?
        @usableFromInline var entry: AnyEntry?
    }

    @usableFromInline var slots: ContiguousArray<Slot>
    @usableFromInline var mask: Int
    @usableFromInline private(set) var count = 0

    init(capacity: Int = 16) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        // Each empty slot written in place (`repeating:` copied the empty slot per element).
        slots = ContiguousArray(unsafeUninitializedCapacity: size) { buffer, initialized in
            for index in 0..<size { (buffer.baseAddress.unsafelyUnwrapped + index).initialize(to: Slot()) }
            initialized = size
        }
        mask = size - 1
    }

    @inlinable @inline(__always)
    static func hash(_ typeID: ObjectIdentifier) -> Int {
        let bits = UInt(bitPattern: typeID)
        return Int(bitPattern: (bits &* 0x9E37_79B9_7F4A_7C15) >> 17)
    }

    @inlinable @inline(__always)
    static func hash(_ typeID: ObjectIdentifier, _ name: String?) -> Int {
        guard let name else { return hash(typeID) }
        return hash(typeID) ^ name.hashValue
    }

    /// The entry for an unnamed type, unretained: for the inlined fast path, which uses it
    /// while the queue is held and the table cannot change (see ``ContainerState/Frame``).
    @inlinable @inline(__always)
    func unretainedEntry(for typeID: ObjectIdentifier) -> Unmanaged<AnyEntry>? {
        var index = Self.hash(typeID) & mask
        while true {
            guard let entry = slots[index].entry else { return nil }
            if slots[index].typeID == typeID && slots[index].name == nil { return .passUnretained(entry) }
            index = (index &+ 1) & mask
        }
    }

    @inlinable
    func entry(for key: Key) -> AnyEntry? {
        guard key.name != nil else { return unretainedEntry(for: key.typeID)?.takeUnretainedValue() }
        var index = Self.hash(key.typeID, key.name) & mask
        while true {
            guard let entry = slots[index].entry else { return nil }
            if slots[index].typeID == key.typeID && slots[index].name == key.name { return entry }
            index = (index &+ 1) & mask
        }
    }

    /// Inserts or replaces; returns the entry that was replaced.
    @discardableResult
    mutating func set(_ entry: AnyEntry, for key: Key) -> AnyEntry? {
        if (count + 1) * 4 > slots.count * 3 { grow() }
        var index = Self.hash(key.typeID, key.name) & mask
        while let existing = slots[index].entry {
            if slots[index].typeID == key.typeID && slots[index].name == key.name {
                slots[index].entry = entry
                return existing
            }
            index = (index &+ 1) & mask
        }
        slots[index] = Slot(typeID: key.typeID, name: key.name, entry: entry)
        count += 1
        return nil
    }

    private mutating func grow() {
        var grown = RegistrationTable(capacity: slots.count)
        let newMask = grown.mask
        // Slots are swapped into the new buffer (each with an empty one), not copied: no
        // retain or release per entry. A table shared with a snapshot is copied first, as usual.
        slots.withUnsafeMutableBufferPointer { old in
            grown.slots.withUnsafeMutableBufferPointer { new in
                // A slot is in use exactly when its `typeID` is set: comparing that touches no
                // reference count.
                for position in old.indices {
                    guard let typeID = old[position].typeID else { continue }
                    // Keys in the table are distinct, so the first free slot is the place.
                    var index = Self.hash(typeID, old[position].name) & newMask
                    while new[index].typeID != nil { index = (index &+ 1) & newMask }
                    swap(&old[position], &new[index])
                }
            }
        }
        grown.count = count
        self = grown
    }

    /// Every entry, in no particular order.
    var entries: [AnyEntry] { slots.compactMap(\.entry) }
}
