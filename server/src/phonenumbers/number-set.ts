/**
 * A set of stored phone numbers (digits, at most 15, so exact as doubles) in one open-addressing
 * table: 16 bytes a number at most, against about 70 for a Set of strings, so the numbers of a
 * 200 MB file fit while an import sees each row once. Longer strings (never a stored number) go
 * to a plain Set.
 */
export class NumberSet {
  private table = new Float64Array(1 << 16);
  private size = 0;
  private readonly others = new Set<string>();

  /** Adds the number; answers false when it was already there. */
  add(number: string): boolean {
    const value = number.length <= 15 && /^\d+$/.test(number) ? Number(number) : NaN;
    if (Number.isNaN(value)) {
      if (this.others.has(number)) return false;
      this.others.add(number);
      return true;
    }
    // 0 marks an empty slot; store value + 1 so the number 0 stays representable.
    const key = value + 1;
    if (this.insert(this.table, key)) {
      this.size += 1;
      if (this.size * 2 > this.table.length) this.grow();
      return true;
    }
    return false;
  }

  private insert(table: Float64Array, key: number): boolean {
    const mask = table.length - 1;
    // Mix the high and low halves: numbers share long prefixes.
    let i = (Math.imul((key % 4294967296) ^ Math.floor(key / 4294967296), 0x9e3779b1) >>> 0) & mask;
    for (;;) {
      const slot = table[i]!;
      if (slot === 0) {
        table[i] = key;
        return true;
      }
      if (slot === key) return false;
      i = (i + 1) & mask;
    }
  }

  private grow(): void {
    const old = this.table;
    this.table = new Float64Array(old.length * 2);
    for (const key of old) if (key !== 0) this.insert(this.table, key);
  }
}
