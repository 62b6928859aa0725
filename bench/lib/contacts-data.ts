/** Generated bench data shared by the contact benchmarks. */
const FIRST = ['Budi', 'Siti', 'Agus', 'Dewi', 'Rina', 'Joko', 'Sri', 'Andi', 'Putri', 'Eko', 'Wati', 'Hendra', 'Nur', 'Rudi', 'Fitri'];
const LAST = ['Santoso', 'Wijaya', 'Saputra', 'Pratama', 'Lestari', 'Hidayat', 'Kusuma', 'Setiawan', 'Nugroho', 'Rahayu'];

/** The i-th number of a scrambled but collision-free series (a bijection on 10-digit suffixes). */
export const benchNumber = (i: number) => `628${String((i * 2654435761) % 10_000_000_000).padStart(10, '0')}`;
export const benchName = (i: number) => `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]} ${i % 1000}`;

/** `--name N` from the command line, else the fallback. */
export function numberArg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
