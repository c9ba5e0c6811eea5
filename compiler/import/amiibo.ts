/**
 * `catalog import amiibo <amiibo.json>`: AmiiboAPI's database. Every amiibo becomes a figure of its
 * amiibo series; the series, character, game series and type are decoded from the 16-hex-digit id
 * as AmiiboAPI does (`amiibo/amiibo.py`): for `0xHHHHHHHHTTTTTTTT` as a string, character =
 * `0x` + id[2:6], game series = `0x` + id[2:5], type = `0x` + id[8:10], amiibo series = `0x` +
 * id[14:16]. Figure ids are the amiibo ids; series ids are `amiibo-<series hex>` (`amiibo-0x05`).
 * A figure's release date is its North American one, else its earliest; a series' is the earliest
 * of its figures. Amiibo have no rarity tiers (null) and no price; the image is AmiiboAPI's icon.
 */
import { basename } from 'node:path';
import type { FigureSeriesRecord } from '../../snapshots/records.js';
import type { ImportContext } from './context.js';
import { isObject, readJson, text } from './source-files.js';
import { earliest, readSourceDate } from './source-date.js';
import { tally } from './tally.js';

export interface AmiiboIdParts {
  character: string;
  gameSeries: string;
  type: string;
  amiiboSeries: string;
}

/** The parts of an amiibo id, or null when it is not `0x` + 16 hex digits. */
export function decodeAmiiboId(id: string): AmiiboIdParts | null {
  if (!/^0x[0-9a-fA-F]{16}$/.test(id)) return null;
  const lower = id.toLowerCase();
  return {
    character: `0x${lower.slice(2, 6)}`,
    gameSeries: `0x${lower.slice(2, 5)}`,
    type: `0x${lower.slice(8, 10)}`,
    amiiboSeries: `0x${lower.slice(14, 16)}`,
  };
}

export function amiiboImageUrl(id: string): string {
  return `https://raw.githubusercontent.com/N3evin/AmiiboAPI/master/images/icon_${id.slice(2, 10)}-${id.slice(10, 18)}.png`;
}

const REGIONS = ['na', 'eu', 'jp', 'au'] as const;

export async function importAmiibo(path: string, context: ImportContext): Promise<void> {
  const { folder, report } = context;
  const label = basename(path);
  const counts = report.file(label);
  const doc = await readJson(path);
  const root = doc.ok && isObject(doc.value) ? doc.value : null;
  if (root === null || !isObject(root.amiibos) || !isObject(root.amiibo_series)) {
    report.reject(label, '(file)', doc.ok ? 'not an AmiiboAPI amiibo.json: no amiibos and amiibo_series objects' : doc.reason);
    return;
  }
  const lookup = (table: unknown, key: string): string | null => (isObject(table) ? text(table[key.toLowerCase()]) : null);

  // First pass: each figure's decoded parts and release day, so a series can take its earliest day.
  const figures: { id: string; raw: Record<string, unknown>; parts: AmiiboIdParts | null; releasedAt: string | null }[] = [];
  for (const [id, raw] of Object.entries(root.amiibos)) {
    const a = isObject(raw) ? raw : {};
    const release = isObject(a.release) ? a.release : {};
    const days = REGIONS.map((r) => readSourceDate(release[r], folder.asOf).date);
    figures.push({ id, raw: a, parts: decodeAmiiboId(id), releasedAt: days[0] ?? earliest(days) });
  }
  const seriesDays = new Map<string, (string | null)[]>();
  for (const f of figures) if (f.parts !== null) seriesDays.set(f.parts.amiiboSeries, [...(seriesDays.get(f.parts.amiiboSeries) ?? []), f.releasedAt]);

  const seriesIds = new Map<string, string>();
  for (const [hex, name] of Object.entries(root.amiibo_series)) {
    counts.read += 1;
    const series: FigureSeriesRecord = {
      id: `amiibo-${hex.toLowerCase()}`,
      name: text(name) ?? '',
      manufacturer: 'Nintendo',
      releasedAt: earliest(seriesDays.get(hex.toLowerCase()) ?? []),
    };
    if (tally(report, label, `series ${hex}`, folder.putSeries(series))) seriesIds.set(hex.toLowerCase(), series.id);
  }

  for (const f of figures) {
    counts.read += 1;
    if (f.parts === null) {
      report.reject(label, f.id, 'id is not 0x followed by 16 hex digits');
      continue;
    }
    const seriesId = seriesIds.get(f.parts.amiiboSeries);
    if (seriesId === undefined) {
      report.reject(label, f.id, `amiibo series ${f.parts.amiiboSeries} is not in amiibo_series`);
      continue;
    }
    tally(report, label, f.id, folder.putFigure({
      id: f.id,
      seriesId,
      name: text(f.raw.name) ?? '',
      rarity: null,
      imageUrl: amiiboImageUrl(f.id),
      releasedAt: f.releasedAt,
      character: lookup(root.characters, f.parts.character),
      gameSeries: lookup(root.game_series, f.parts.gameSeries),
      amiiboType: lookup(root.types, f.parts.type),
    }));
  }
}
