import { randomUUID } from 'node:crypto';
import zlib from 'node:zlib';
import { type Mirror, storeMetadata, storeServerPage } from '../../electron/desk/mirror';
import { openDeskMirror } from '../../electron/desk/outbox';
import { activeMirrorFolder } from '../../electron/desk/sync';
import type { AdoptionFee, CustomField, Person, Pet } from '../../shared/contract';
import { makePerson, makePet } from '../sync/fixtures';

/** A PNG photo (a warm gradient with a darker disc), made here so the tests need no image files. */
export function fixturePhoto(size = 96, variant = 0): Buffer {
  const raw = Buffer.alloc((size * 3 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 3 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const inside = (x - size / 2) ** 2 + (y - size / 2) ** 2 < (size / 3) ** 2;
      const offset = y * (size * 3 + 1) + 1 + x * 3;
      raw[offset] = inside ? 120 : 230 - y;
      raw[offset + 1] = inside ? 70 : 170 - x / 2;
      raw[offset + 2] = inside ? 40 : (90 + variant * 37) % 256;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const FEE_RULES: AdoptionFee[] = [
  { species: 'dog', attribute_type: 'base', attribute_value: '', adjustment: 175 },
  { species: 'dog', attribute_type: 'age_category', attribute_value: 'senior', adjustment: -100 },
  { species: 'cat', attribute_type: 'base', attribute_value: '', adjustment: 95 },
];

export const PET_FIELDS: CustomField[] = [
  {
    field_key: 'public_page',
    label: 'Public page',
    field_type: 'url',
    required: false,
    help_text: null,
    options: null,
    section: null,
    hidden: false,
    internal_only: false,
  },
];

export const ADOPTER_CONTRACT = `# Adoption Agreement

**Riverbend Animal Rescue**

By signing this agreement, the adopter agrees to the following terms.

## Care

1. Provide the animal with adequate food, fresh water, shelter and *veterinary care*.
2. Keep identification up to date.

## Return policy

If you can no longer keep the animal, **return it to us**. Do not sell it.

> The adoption fee is non-refundable.
`;

const LONG_WORDS = 'She greets everyone at the gate with a wagging tail and a soft toy in her mouth. ';

export interface PrintFixture {
  mirror: Mirror;
  dataDir: string;
  /** A senior dog with every field filled, a public page and a very long description. */
  full: Pet;
  /** A cat with the fewest fields, a fee set on the pet and no photo address. */
  plain: Pet;
  /** A dog adopted by `adopter`. */
  adopted: Pet;
  adopter: Person;
  foster: Person;
  volunteer: Person;
  surrender: Person;
}

/**
 * The mirror of the desk data folder `dataDir` (its active connection's, as the app and the CLI read it) holding the
 * fixture pets, people, fee rules, pet fields and the four contracts.
 */
export async function openPrintFixture(dataDir: string): Promise<PrintFixture> {
  const mirror = await openDeskMirror({ dataDir: activeMirrorFolder(dataDir) });
  const adopter = makePerson({
    name: 'Jordan Rivera',
    email: 'jordan.rivera@example.com',
    phone: '+1 555 0199',
    address: '41 Brook Lane, Riverbend',
  });
  const full = makePet({
    name: 'Bella Maria Esperanza of the Riverbend Kennels',
    species: 'dog',
    age_category: 'senior',
    sex: 'female',
    size: 'xLarge',
    breed: ['Bernese Mountain Dog', 'Great Pyrenees', 'Anatolian Shepherd'],
    color: ['tricolour', 'white', 'rust'],
    age_years: '9',
    age_months: '4',
    weight: '48 kg',
    spayed: true,
    microchip_id: '985112003456789',
    intake_date: '2026-03-01',
    temperaments: ['gentle', 'loyal', 'quiet', 'affectionate', 'smart'],
    good_with: ['kids', 'dogs', 'seniors', 'families', 'firstTimeOwners'],
    bad_with: ['cats'],
    special_needs: ['Daily joint supplement', 'Soft food only', 'No stairs'],
    description: LONG_WORDS.repeat(40),
    adoption_fee: '',
    global_adoption_fee: 75,
    custom_id: 'RAR-000199',
    image_urls: ['https://photos.example/bella.png'],
    custom_field_data: { public_page: 'https://riverbend-rescue.example/adopt/bella' },
  });
  const plain = makePet({
    name: 'Tom',
    species: 'cat',
    breed: [],
    color: [],
    age_years: null,
    adoption_fee: '60',
    temperaments: [],
    good_with: [],
    custom_id: 'RAR-000002',
    description: '',
  });
  const adopted = makePet({
    name: 'Rex',
    status: 'adopted',
    adopted_by: adopter.id,
    adopted_on: '2026-05-02',
    adoption_fee: '',
    global_adoption_fee: 175,
    custom_id: 'RAR-000003',
  });
  storeServerPage(mirror.db, 'pet', [full, plain, adopted], 'listed');
  const foster = makePerson({ type: 'foster', name: 'Sam Okafor', capacity: 3 });
  const volunteer = makePerson({ type: 'volunteer', name: 'Lee Chen', email: null, phone: null });
  const surrender = makePerson({ type: 'surrender', name: 'Chris Müller', address: 'Hauptstraße 5, Köln' });
  storeServerPage(mirror.db, 'person', [adopter, foster, volunteer, surrender], 'listed');
  const at = '2026-06-01T00:00:00.000Z';
  storeMetadata(mirror.db, 'adoption-fees', { fees: FEE_RULES }, at);
  storeMetadata(mirror.db, 'pet-custom-fields', { custom_fields: PET_FIELDS }, at);
  storeMetadata(
    mirror.db,
    'contract:adopter',
    { type: 'adopter', content: ADOPTER_CONTRACT, updated_at: at },
    at,
  );
  for (const type of ['foster', 'volunteer', 'surrender'] as const) {
    const content = `# ${type[0]?.toUpperCase()}${type.slice(1)} agreement\n\nThe ${type} agrees to the terms of the rescue.\n\n- Term one\n- Term two\n`;
    storeMetadata(mirror.db, `contract:${type}`, { type, content, updated_at: at }, at);
  }
  return { mirror, dataDir, full, plain, adopted, adopter, foster, volunteer, surrender };
}

export const randomId = randomUUID;
