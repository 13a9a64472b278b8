/// A container's table: the slot of each `(type, name)` key.
///
/// Not a `Dictionary<Key, Slot>`: the first dictionary with `Key` keys a process makes has Swift
/// search every protocol conformance record of the process for `Key: Hashable` (40 µs of a
/// 500-service app launch, measured). Here the slots sit in a dense array, and a hash index of
/// plain integers (open addressing, linear probing) finds their position: a lookup reads integers
/// until it finds the key, and growing rebuilds only the index. A slot's key is not stored: it is
/// its alias's type or its entry's, with its entry's name (see ``Slot/key``).
struct SlotTable: Sequence {
    /// One bucket of the index: a key's type (its `ObjectIdentifier`'s bits; 0 for an empty
    /// bucket), its name's hash (see `nameHash(of:)`) and its position in `slots`.
    private struct Probe {
        var typeID: UInt = 0
        var nameHash = 0
        var position = 0
    }

    private var index: [Probe] = []
    private var slots: [Slot] = []

    var count: Int { slots.count }
    var values: [Slot] { slots }

    /// The slot of `key`.
    subscript(key: Key) -> Slot? {
        guard !slots.isEmpty, case (let bucket, true) = find(key) else { return nil }
        return slots[index[bucket].position]
    }

    /// Puts `slot` at `key`; returns the slot it replaced, if any.
    @discardableResult
    mutating func updateValue(_ slot: Slot, forKey key: Key) -> Slot? {
        assert(slot.key == key, "a slot is put at its own key: the table reads it back from the slot")
        reserveCapacity(slots.count + 1)
        let (bucket, found) = find(key)
        if found {
            defer { slots[index[bucket].position] = slot }
            return slots[index[bucket].position]
        }
        index[bucket] = Probe(
            typeID: UInt(bitPattern: key.typeID), nameHash: Self.nameHash(of: key), position: slots.count)
        slots.append(slot)
        return nil
    }

    /// Removes the slot of `key`; returns it, if there was one.
    @discardableResult
    mutating func removeValue(forKey key: Key) -> Slot? {
        guard !slots.isEmpty, case (var hole, true) = find(key) else { return nil }
        // The last slot moves into the removed one's position.
        let position = index[hole].position
        if position != slots.count - 1, case (let moved, true) = find(slots[slots.count - 1].key) {
            index[moved].position = position
            slots.swapAt(position, slots.count - 1)
        }
        let removed = slots.removeLast()
        // Backward-shift deletion: a later bucket of the same run moves into the hole unless its
        // home lies cyclically after the hole (a lookup starting there would not reach it).
        let mask = index.count - 1
        var next = (hole + 1) & mask
        while index[next].typeID != 0 {
            if (next - Self.home(of: index[next], mask: mask)) & mask >= (next - hole) & mask {
                index[hole] = index[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        index[hole] = Probe()
        return removed
    }

    /// Makes room for `minimum` slots without growing the index again (at most three quarters full).
    mutating func reserveCapacity(_ minimum: Int) {
        guard minimum * 4 > index.count * 3 else { return }
        var capacity = Swift.max(8, index.count)
        while minimum * 4 > capacity * 3 { capacity *= 2 }
        let old = index
        index = Array(repeating: Probe(), count: capacity)
        for probe in old where probe.typeID != 0 {
            var bucket = Self.home(of: probe, mask: capacity - 1)
            while index[bucket].typeID != 0 { bucket = (bucket + 1) & (capacity - 1) }
            index[bucket] = probe
        }
        // The dense array grows as it is appended to (doubling, moving its elements) unless a
        // batch asks for more room up front.
        if minimum > slots.capacity + 1 { slots.reserveCapacity(minimum) }
    }

    /// The bucket of `key`, or the empty one where it would go (the index always has one).
    private func find(_ key: Key) -> (bucket: Int, found: Bool) {
        let (typeID, nameHash) = (UInt(bitPattern: key.typeID), Self.nameHash(of: key))
        let mask = index.count - 1
        var bucket = Self.home(of: Probe(typeID: typeID, nameHash: nameHash), mask: mask)
        while index[bucket].typeID != 0 {
            if index[bucket].typeID == typeID, index[bucket].nameHash == nameHash,
                nameHash == 0 || slots[index[bucket].position].entry.spec.name == key.name
            {
                return (bucket, true)
            }
            bucket = (bucket + 1) & mask
        }
        return (bucket, false)
    }

    /// A name's hash, never 0 (which stands for no name).
    private static func nameHash(of key: Key) -> Int { key.name.map { $0.hashValue | 1 } ?? 0 }

    /// The first bucket probed for a key: its type's address and name hash mixed by MurmurHash3's
    /// finalizer. Type addresses are not chosen by an attacker: a keyed hash buys nothing.
    private static func home(of probe: Probe, mask: Int) -> Int {
        var bits = UInt64(probe.typeID) ^ UInt64(UInt(bitPattern: probe.nameHash))
        bits = (bits ^ bits >> 33) &* 0xff51_afd7_ed55_8ccd
        bits = (bits ^ bits >> 33) &* 0xc4ce_b9fe_1a85_ec53
        return Int(truncatingIfNeeded: bits ^ bits >> 33) & mask
    }

    /// Each key with its slot, in the order they were put (a removal moves the last one).
    func makeIterator() -> IndexingIterator<[(key: Key, value: Slot)]> {
        slots.map { (key: $0.key, value: $0) }.makeIterator()
    }
}
