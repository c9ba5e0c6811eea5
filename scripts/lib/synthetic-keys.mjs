// Object keys shaped like a real snapshot's of `cards` cards, in the order the compile renders them:
// cards (five ranges each), one figure document per ~8 cards, then list pages. Shared by the
// benchmarks that build a synthetic index or packed snapshot of a million cards (5,325,000 keys).

const RANGES = ['30d', '3mo', '6mo', '12mo', 'all'];

export function* syntheticKeys(cards) {
  const games = ['mtg', 'pokemon', 'lorcana', 'onepiece'];
  for (let i = 0; i < cards; i++) {
    const id = `${games[i % 4]}-s${(i >> 8) % 997}-${i}`;
    for (const r of RANGES) yield `v1/cards/${id}/${r}.json.gz`;
  }
  for (let i = 0; i < cards / 8; i++) yield `v1/figures/fs-${i >> 4}-${i}.json.gz`;
  for (let i = 0; i < cards / 5; i++) yield `v1/sets/mtg/s${i >> 7}/page-${(i % 128) + 1}.json.gz`;
}
