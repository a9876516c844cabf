// Draws the demo shelter's pet pictures (cartoon portraits, made here: nothing downloaded, no licence to track) and
// writes them as small JPEGs, base64 in resources/demo/photos.json, which the demo loader stores in the server's
// database like uploaded photos. JPEG because kennel cards can embed it. Run again only to change the drawings:
//   node scripts/make-demo-photos.mjs
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const SIZE = 400;
const OUT = path.join(import.meta.dirname, '..', 'resources', 'demo', 'photos.json');
const COUNTS = { dog: 14, cat: 12, rabbit: 6 };
const FURS = ['#8b5a2b', '#d9a066', '#3b2f2f', '#f2e6d0', '#a0a0a0', '#c46a2d', '#5a4632', '#e8d3b0'];
const BACKDROPS = ['#cfe8e1', '#f6e3c5', '#dfe4f5', '#f3d6d8', '#e3f0cf', '#ede1f5', '#fbeecb', '#d6ecf3'];

/** Same drawings on every run. */
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function eyes(random, y, spread) {
  const look = (random() - 0.5) * 6;
  return [-1, 1]
    .map(
      (side) => `<circle cx="${200 + side * spread}" cy="${y}" r="16" fill="#fff"/>
      <circle cx="${200 + side * spread + look}" cy="${y + 2}" r="9" fill="#1d1d1d"/>
      <circle cx="${200 + side * spread + look + 3}" cy="${y - 2}" r="3" fill="#fff"/>`,
    )
    .join('');
}

function dog(random, fur, patch) {
  const floppy = random() < 0.6;
  const ears = floppy
    ? `<ellipse cx="110" cy="200" rx="42" ry="85" fill="${patch}" transform="rotate(20 110 200)"/>
       <ellipse cx="290" cy="200" rx="42" ry="85" fill="${patch}" transform="rotate(-20 290 200)"/>`
    : `<polygon points="105,150 135,55 175,130" fill="${patch}"/><polygon points="295,150 265,55 225,130" fill="${patch}"/>`;
  return `${ears}
    <ellipse cx="200" cy="215" rx="112" ry="118" fill="${fur}"/>
    <ellipse cx="${random() < 0.5 ? 160 : 240}" cy="185" rx="38" ry="32" fill="${patch}" opacity="0.7"/>
    ${eyes(random, 190, 45)}
    <ellipse cx="200" cy="270" rx="58" ry="44" fill="#f5e9dc"/>
    <ellipse cx="200" cy="252" rx="22" ry="15" fill="#2a1d1d"/>
    <path d="M200 266 Q200 290 180 292 M200 266 Q200 290 220 292" stroke="#2a1d1d" stroke-width="5" fill="none"/>
    ${random() < 0.5 ? '<ellipse cx="200" cy="305" rx="14" ry="18" fill="#e0607e"/>' : ''}`;
}

function cat(random, fur, patch) {
  const stripes = random() < 0.5;
  return `<polygon points="95,170 115,45 190,120" fill="${fur}"/><polygon points="305,170 285,45 210,120" fill="${fur}"/>
    <polygon points="112,150 122,80 165,122" fill="#f2b8c6"/><polygon points="288,150 278,80 235,122" fill="#f2b8c6"/>
    <ellipse cx="200" cy="220" rx="118" ry="108" fill="${fur}"/>
    ${stripes ? `<path d="M170 125 L180 160 M200 118 L200 158 M230 125 L220 160" stroke="${patch}" stroke-width="9" stroke-linecap="round"/>` : `<ellipse cx="250" cy="190" rx="40" ry="34" fill="${patch}" opacity="0.8"/>`}
    <ellipse cx="155" cy="205" rx="20" ry="24" fill="#cde26b"/><ellipse cx="245" cy="205" rx="20" ry="24" fill="#cde26b"/>
    <ellipse cx="155" cy="207" rx="6" ry="18" fill="#1d1d1d"/><ellipse cx="245" cy="207" rx="6" ry="18" fill="#1d1d1d"/>
    <polygon points="188,250 212,250 200,264" fill="#e07a8f"/>
    <path d="M200 264 Q200 280 186 282 M200 264 Q200 280 214 282" stroke="#2a1d1d" stroke-width="4" fill="none"/>
    <path d="M120 255 L175 262 M118 275 L175 270 M280 255 L225 262 M282 275 L225 270" stroke="#2a1d1d" stroke-width="3"/>`;
}

function rabbit(random, fur, patch) {
  const lop = random() < 0.4;
  const ears = lop
    ? `<ellipse cx="115" cy="225" rx="34" ry="95" fill="${fur}" transform="rotate(25 115 225)"/>
       <ellipse cx="285" cy="225" rx="34" ry="95" fill="${fur}" transform="rotate(-25 285 225)"/>`
    : `<ellipse cx="160" cy="95" rx="30" ry="95" fill="${fur}"/><ellipse cx="240" cy="95" rx="30" ry="95" fill="${fur}"/>
       <ellipse cx="160" cy="100" rx="14" ry="70" fill="#f2b8c6"/><ellipse cx="240" cy="100" rx="14" ry="70" fill="#f2b8c6"/>`;
  return `${ears}
    <ellipse cx="200" cy="245" rx="105" ry="100" fill="${fur}"/>
    <ellipse cx="200" cy="290" rx="48" ry="36" fill="${patch}" opacity="0.6"/>
    ${eyes(random, 225, 45)}
    <ellipse cx="200" cy="270" rx="12" ry="9" fill="#e07a8f"/>
    <rect x="190" y="290" width="20" height="22" rx="4" fill="#fff" stroke="#ccc"/>`;
}

const DRAW = { dog, cat, rabbit };
const photos = [];
let seed = 7;
for (const [species, count] of Object.entries(COUNTS)) {
  for (let index = 0; index < count; index++) {
    const random = seeded(seed++);
    const fur = FURS[Math.floor(random() * FURS.length)];
    let patch = FURS[Math.floor(random() * FURS.length)];
    if (patch === fur) patch = '#ffffff';
    const backdrop = BACKDROPS[Math.floor(random() * BACKDROPS.length)];
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 400 400">
      <rect width="400" height="400" fill="${backdrop}"/>
      <circle cx="${60 + random() * 280}" cy="${40 + random() * 60}" r="${30 + random() * 30}" fill="#ffffff" opacity="0.45"/>
      <rect y="340" width="400" height="60" fill="#000" opacity="0.06"/>
      ${DRAW[species](random, fur, patch)}
    </svg>`;
    const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 72, mozjpeg: true }).toBuffer();
    photos.push({ species, jpeg: jpeg.toString('base64') });
  }
}
fs.writeFileSync(OUT, `${JSON.stringify({ photos }, null, 0)}\n`);
const bytes = photos.reduce((sum, photo) => sum + (photo.jpeg.length * 3) / 4, 0);
console.log(`Wrote ${photos.length} demo photos (${Math.round(bytes / 1024)} KB of JPEG) to ${OUT}`);
