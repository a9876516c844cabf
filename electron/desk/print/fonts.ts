import fs from 'node:fs';
import path from 'node:path';
import { fontCoverage } from './font-coverage';

/**
 * The fonts printed documents embed (PDFKit keeps only the glyphs used): DejaVu Sans in four styles for Latin,
 * Greek, Cyrillic, Arabic and most other alphabets, and Droid Sans Fallback for Chinese and Japanese (it has no
 * Latin letters, so text is split into runs by the font that has each character). Files and licences:
 * resources/fonts. A character no font has is printed as its closest plain letter ("ǅ" as "Dž") or "?".
 */
export type FontStyle = 'regular' | 'bold' | 'italic' | 'boldItalic';
type FontKey = FontStyle | 'cjk';

const FILES: Record<FontKey, string> = {
  regular: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  italic: 'DejaVuSans-Oblique.ttf',
  boldItalic: 'DejaVuSans-BoldOblique.ttf',
  cjk: 'DroidSansFallbackFull.ttf',
};

/** The names fonts are registered under in every document (`createDocument`). */
export const FONT_NAMES: Record<FontKey, string> = {
  regular: 'Sans',
  bold: 'Sans-Bold',
  italic: 'Sans-Oblique',
  boldItalic: 'Sans-BoldOblique',
  cjk: 'Sans-CJK',
};

/** Where a style looks when it lacks a character (an upright face before the CJK font). */
const FALLBACKS: Record<FontStyle, FontKey[]> = {
  regular: ['regular', 'cjk'],
  bold: ['bold', 'regular', 'cjk'],
  italic: ['italic', 'regular', 'cjk'],
  boldItalic: ['boldItalic', 'bold', 'regular', 'cjk'],
};

/**
 * The font folder: `resources/fonts` beside the sources (tests, browser mode), or `fonts/` beside the built bundle:
 * `out/main/fonts` (copied there by electron.vite.config.ts, so the packaged app has them) and `out/cli/fonts`
 * (scripts/lib/cli-build.mjs; this module is then in `out/cli/chunks`, hence the parent folder).
 */
function fontFolder(): string {
  const here = import.meta.dirname;
  const candidates = [
    path.join(here, 'fonts'),
    path.join(here, '..', 'fonts'),
    path.resolve(here, '../../../resources/fonts'),
  ];
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, FILES.regular)));
  if (!found) throw new Error(`The print fonts are missing (looked in ${candidates.join(', ')}).`);
  return found;
}

interface LoadedFont {
  file: Buffer;
  covers: Set<number>;
}

let loaded: Record<FontKey, LoadedFont> | undefined;

/** The font files and what each covers, read once per process. */
function fonts(): Record<FontKey, LoadedFont> {
  if (!loaded) {
    const folder = fontFolder();
    const entries = (Object.keys(FILES) as FontKey[]).map((key) => {
      const file = fs.readFileSync(path.join(folder, FILES[key]));
      return [key, { file, covers: fontCoverage(file) }] as const;
    });
    loaded = Object.fromEntries(entries) as Record<FontKey, LoadedFont>;
  }
  return loaded;
}

/** Registers the print fonts in a document under `FONT_NAMES`. */
export function registerFonts(doc: PDFKit.PDFDocument): void {
  const all = fonts();
  for (const key of Object.keys(FILES) as FontKey[]) doc.registerFont(FONT_NAMES[key], all[key].file);
}

export interface FontSegment {
  /** A registered font name. */
  font: string;
  text: string;
}

const MARK = /\p{M}/u;
/**
 * A right-to-left span: RTL letters and what sits between them (spaces, marks, punctuation). PDFKit lays out each
 * run in one direction, chosen by its first letter, so such a span is a run of its own: shaped and ordered right to
 * left, and the Latin text around it stays left to right.
 */
const RTL_SPAN =
  /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}](?:[\p{M}\p{Zs}\p{P}]*[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}])*\p{M}*/gu;

function splitDirections(segment: FontSegment): FontSegment[] {
  const parts: FontSegment[] = [];
  let from = 0;
  for (const match of segment.text.matchAll(RTL_SPAN)) {
    if (match.index > from) parts.push({ font: segment.font, text: segment.text.slice(from, match.index) });
    parts.push({ font: segment.font, text: match[0] });
    from = match.index + match[0].length;
  }
  if (from < segment.text.length) parts.push({ font: segment.font, text: segment.text.slice(from) });
  return parts;
}

function approximate(char: string, covers: Set<number>): string {
  const stripped = char.normalize('NFKD').replace(/\p{M}/gu, '');
  const plain = [...stripped].every((each) => covers.has(each.codePointAt(0) ?? 0));
  return stripped && plain ? stripped : '?';
}

/**
 * The text split into runs of one font each, for a style: each character in the first font of the style's
 * fallbacks that has it; a combining mark stays in its letter's font when that font has it. Control characters
 * (other than new lines and tabs) are dropped.
 */
export function fontSegments(text: string, style: FontStyle): FontSegment[] {
  const all = fonts();
  const segments: FontSegment[] = [];
  let previous: FontKey | undefined;
  for (const char of text.normalize('NFC')) {
    const code = char.codePointAt(0) ?? 0;
    let key: FontKey | undefined;
    let printed = char;
    if (char === '\n' || char === '\t') key = previous ?? style;
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) continue;
    else if (previous && MARK.test(char) && all[previous].covers.has(code)) key = previous;
    else key = FALLBACKS[style].find((each) => all[each].covers.has(code));
    if (!key) {
      key = style;
      printed = approximate(char, all[style].covers);
    }
    const last = segments[segments.length - 1];
    if (last && previous === key) last.text += printed;
    else segments.push({ font: FONT_NAMES[key], text: printed });
    previous = key;
  }
  return segments.flatMap(splitDirections);
}

/** The text as it will be printed: what `fontSegments` keeps, in one string. */
export function printedText(text: string, style: FontStyle = 'regular'): string {
  return fontSegments(text, style)
    .map((segment) => segment.text)
    .join('');
}

/** The width of a text in points at the document's current font size, with each run in its own font. */
export function widthOfSegments(doc: PDFKit.PDFDocument, segments: readonly FontSegment[]): number {
  let width = 0;
  for (const segment of segments) width += doc.font(segment.font).widthOfString(segment.text);
  return width;
}
