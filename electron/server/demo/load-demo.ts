import { z } from 'zod';
import catalogueJson from '../../../resources/demo/catalogue.json' with { type: 'json' };
import contractsJson from '../../../resources/demo/contracts.json' with { type: 'json' };
import photosJson from '../../../resources/demo/photos.json' with { type: 'json' };
import {
  AGE_CATEGORIES,
  COMPATIBILITY_VALUES,
  CONTRACT_TYPES,
  HEALTH_VALUES,
  SEXES,
  SIZES,
  SPECIES,
  TEMPERAMENTS,
} from '../../../shared/contract';
import { ageGroupOfMonths, calendarMonthsBetween } from '../../../shared/wording/age';
import { sha256Hex } from '../../platform/photo-image';
import type { PetRow } from '../db/rows';
import { localCalendarDate } from '../db/update-clock';
import type { ServerContext } from '../server-context';
import type { StaffOperations } from '../staff/staff-operations';

const DEFAULT_DEMO_PETS = 120;
const SEED = 20_260_121;

const speciesMap = <T extends z.ZodType>(item: T) => z.object({ dog: item, cat: item, rabbit: item });
const catalogueSchema = z.object({
  shelter: z.string(),
  breeds: speciesMap(z.array(z.string()).min(1)),
  colors: speciesMap(z.array(z.string()).min(1)),
  names: z.array(z.string()).min(1),
  descriptions: z.object({
    openers: z.array(z.string()).min(1),
    origins: z.array(z.string()).min(1),
    tempers: z.array(z.string()).min(1),
    middles: speciesMap(z.array(z.string()).min(1)),
    closers: z.array(z.string()).min(1),
  }),
  coatLengths: z.array(z.string()).min(1),
  specialNeeds: z.array(z.string()).min(1),
  tags: z.array(z.string()).min(1),
  customStatuses: z.array(
    z.object({ key: z.string(), label: z.string(), isPublic: z.boolean(), isActive: z.boolean() }),
  ),
  sections: z.array(
    z.object({
      key: z.string(),
      entity: z.enum(['pet', 'adopter', 'foster']),
      name: z.string(),
      hidden: z.boolean(),
    }),
  ),
  customFields: z.array(
    z.object({
      entity: z.enum(['pet', 'adopter', 'foster']),
      fieldKey: z.string(),
      publicKey: z.string().optional(),
      label: z.string(),
      fieldType: z.string(),
      section: z.string().optional(),
      helpText: z.string().optional(),
      options: z.array(z.string()).optional(),
      required: z.boolean().optional(),
      hidden: z.boolean().optional(),
      internalOnly: z.boolean().optional(),
    }),
  ),
  feeRules: z.array(
    z.object({
      species: z.enum(SPECIES),
      attributeType: z.string(),
      attributeValue: z.string(),
      adjustment: z.number(),
    }),
  ),
  veterinarians: z.array(
    z.object({
      name: z.string(),
      clinic: z.string(),
      phone: z.string().nullable(),
      email: z.string().nullable(),
    }),
  ),
  template: z.object({ name: z.string(), defaults: z.record(z.string(), z.unknown()) }),
  people: z.object({
    adopters: z.array(
      z.tuple([z.string(), z.string().nullable(), z.string().nullable(), z.string(), z.string()]),
    ),
    fosters: z.array(
      z.tuple([z.string(), z.string().nullable(), z.string().nullable(), z.string(), z.string(), z.number()]),
    ),
  }),
});
const contractsSchema = z.record(z.enum(CONTRACT_TYPES), z.string());
/** The demo's pet pictures (drawn by scripts/make-demo-photos.mjs): small JPEGs, base64. */
const photosSchema = z.object({
  photos: z.array(z.object({ species: z.enum(['dog', 'cat', 'rabbit']), jpeg: z.string() })).min(1),
});

/** How far back the demo's intakes go, in days before today: the Overview's twelve months are all filled. */
const INTAKE_SPAN_DAYS = 540;

/**
 * The coat a drawn coat length stands for on this animal: no wire or curly cats, and a Sphynx is hairless. Drawn
 * first and mended after, so the demo's other random values stay where the seed puts them.
 */
export function fittingCoat(species: string, breed: readonly string[], drawn: string): string {
  if (species === 'cat' && breed.includes('Sphynx')) return 'hairless';
  return species === 'cat' && (drawn === 'wire' || drawn === 'curly') ? 'short' : drawn;
}

/** Whether a tag or special need fits the animal's age: no baby tagged senior, no adult dog tagged kitten. */
export function fitsAge(word: string, species: string, ageCategory: string): boolean {
  const young = ageCategory === 'youngest' || ageCategory === 'young';
  if (word === 'senior' || word === 'senior care') return ageCategory === 'senior';
  if (word === 'puppy') return species === 'dog' && young;
  if (word === 'kitten') return species === 'cat' && young;
  return true;
}

/**
 * The ages each drawn age group is spread over, in months: within the group's ages (`ageGroupOfMonths`), a baby
 * two months old at least.
 */
const AGE_GROUP_MONTHS: Record<string, readonly [number, number]> = {
  youngest: [2, 5],
  young: [6, 23],
  adult: [24, 95],
  senior: [96, 167],
};

/**
 * The age a drawn age group and drawn years and months stand for: spread over the group's ages, and at least two
 * months more than the time the pet has been in care (no pet came in younger than two months, so none is younger
 * today than its stay); the group then follows the age. Drawn first and mended after, as the coat is.
 */
export function fittingAge(
  drawnGroup: string,
  drawnYears: number,
  drawnMonths: number,
  monthsInCare: number,
): { years: number; months: number; group: string } {
  const [low, high] = AGE_GROUP_MONTHS[drawnGroup] ?? [24, 95];
  const months = Math.max(low + ((drawnYears * 12 + drawnMonths) % (high - low + 1)), monthsInCare + 2);
  return { years: Math.floor(months / 12), months: months % 12, group: ageGroupOfMonths(months) };
}

/**
 * The size each named breed grows to (a mix takes its first breed's). Breeds not named here (a mixed breed, a
 * hound, a domestic cat) keep the drawn size.
 */
const BREED_SIZES: Record<string, Record<string, string>> = {
  dog: {
    Chihuahua: 'xSmall',
    'Yorkshire Terrier': 'xSmall',
    Pug: 'small',
    'Shih Tzu': 'small',
    Dachshund: 'small',
    'Jack Russell Terrier': 'small',
    'Miniature Schnauzer': 'small',
    Corgi: 'small',
    'Shiba Inu': 'small',
    Beagle: 'medium',
    'Cocker Spaniel': 'medium',
    'Basset Hound': 'medium',
    Whippet: 'medium',
    'Cattle Dog': 'medium',
    'Border Collie': 'medium',
    'Australian Shepherd': 'medium',
    'Siberian Husky': 'medium',
    'Pit Bull Terrier': 'medium',
    'American Staffordshire Terrier': 'medium',
    Poodle: 'medium',
    'Labrador Retriever': 'large',
    'Golden Retriever': 'large',
    'German Shepherd': 'large',
    Boxer: 'large',
    Pointer: 'large',
    Greyhound: 'large',
    'Belgian Malinois': 'large',
    'Doberman Pinscher': 'large',
    Bloodhound: 'large',
    Rottweiler: 'xLarge',
    'Great Dane': 'xLarge',
    'Bernese Mountain Dog': 'xLarge',
  },
  cat: { 'Maine Coon': 'medium', 'Norwegian Forest Cat': 'medium', Ragdoll: 'medium' },
  rabbit: {
    'Netherland Dwarf': 'xSmall',
    'Mini Rex': 'xSmall',
    'Flemish Giant': 'medium',
    'New Zealand': 'medium',
  },
};

/** The size that fits the animal's breed: a Chihuahua is never extra large. Drawn first and mended after. */
export function fittingSize(species: string, breed: readonly string[], drawn: string): string {
  return BREED_SIZES[species]?.[breed[0] ?? ''] ?? drawn;
}

/** What a grown dog of each size weighs, in kg. */
const DOG_KG: Record<string, readonly [number, number]> = {
  xSmall: [2, 5],
  small: [5, 10],
  medium: [10, 25],
  large: [25, 40],
  xLarge: [40, 60],
};

/**
 * A weight that fits the animal: a dog's drawn weight (5 to 44 kg) moved into its size's range, and an animal under
 * a year weighing less the younger it is (a third of grown weight at most at four months).
 */
export function fittingWeight(species: string, size: string, drawnKg: number, ageMonths: number): string {
  const range = species === 'dog' ? DOG_KG[size] : undefined;
  const grown = range ? range[0] + ((drawnKg - 5) / 40) * (range[1] - range[0]) : drawnKg;
  const kg = ageMonths < 12 ? grown * Math.max(0.15, ageMonths / 12) : grown;
  return species === 'dog' && kg >= 10 ? `${Math.round(kg)} kg` : `${Math.max(0.3, kg).toFixed(1)} kg`;
}

/** A mix of two breeds: the second drawn again as the next one in the list when it came out the same as the first. */
export function twoBreeds(first: string, second: string, breeds: readonly string[]): [string, string] {
  if (second !== first) return [first, second];
  return [first, breeds[(breeds.indexOf(first) + 1) % breeds.length] ?? second];
}

/** The calendar day `days` after a `YYYY-MM-DD` day (arithmetic on the day numbers, no time zone involved). */
export function addDays(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const shifted = new Date(Date.UTC(year, month - 1, date + days));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`;
}

/**
 * Stores the demo's pictures as uploaded photos; returns each species' addresses on `origin`. The pictures are the
 * same on every run, so their content addresses are too.
 */
function storeDemoPhotos(app: ServerContext, origin: string): Record<'dog' | 'cat' | 'rabbit', string[]> {
  const bySpecies: Record<'dog' | 'cat' | 'rabbit', string[]> = { dog: [], cat: [], rabbit: [] };
  for (const photo of photosSchema.parse(photosJson).photos) {
    const bytes = Buffer.from(photo.jpeg, 'base64');
    const sha256 = sha256Hex(bytes);
    app.photos.put({ bytes, sha256, mime: 'image/jpeg', width: 400, height: 400 }, app.now());
    bySpecies[photo.species].push(`${origin}/api/photos/${sha256}.jpg`);
  }
  return bySpecies;
}

/** mulberry32: a small seeded PRNG, so the demo (and its 100k-pet variant) is the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function seededUuid(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

export interface DemoOptions {
  /** Number of pets (default about 120). */
  pets?: number;
  /**
   * The server's origin (`http://host:port`): the demo's pictures are stored as photos and each pet names one or two
   * of its species at this address. Without it the pets have no photos.
   */
  photoOrigin?: string;
}

export interface DemoSummary {
  loaded: boolean;
  pets: number;
}

/**
 * Loads the demo shelter (resources/demo) into an empty server database: custom statuses (one not public),
 * custom fields with sections (hidden and internal-only ones), fee rules, contracts, vets, a pet template,
 * adopters, fosters and a deterministic set of pets. Does nothing when the database already has pets.
 */
export function loadDemoShelter(
  app: ServerContext,
  staff: StaffOperations,
  options: DemoOptions = {},
): DemoSummary {
  const existing = app.sqlite.prepare('SELECT COUNT(*) FROM pets').pluck().get() as number;
  if (existing > 0) return { loaded: false, pets: existing };
  const catalogue = catalogueSchema.parse(catalogueJson);
  const contracts = contractsSchema.parse(contractsJson);
  const random = seededRandom(SEED);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const chance = (p: number) => random() < p;
  const some = <T>(list: readonly T[], max: number): T[] => {
    const count = Math.floor(random() * (max + 1));
    return [...new Set(Array.from({ length: count }, () => pick(list)))];
  };

  const statusIds = new Map<string, string>();
  for (const status of catalogue.customStatuses) {
    statusIds.set(
      status.key,
      staff.setCustomStatus({
        id: seededUuid(random),
        label: status.label,
        isPublic: status.isPublic,
        isActive: status.isActive,
      }).id,
    );
  }
  const sectionIds = new Map<string, string>();
  catalogue.sections.forEach((section, index) => {
    sectionIds.set(
      section.key,
      staff.setCustomFieldSection({
        id: seededUuid(random),
        entity: section.entity,
        name: section.name,
        hidden: section.hidden,
        sortOrder: index,
      }).id,
    );
  });
  catalogue.customFields.forEach((field, index) => {
    staff.setCustomField({
      id: seededUuid(random),
      entity: field.entity,
      fieldKey: field.fieldKey,
      publicKey: field.publicKey ?? null,
      label: field.label,
      fieldType: field.fieldType,
      required: field.required ?? false,
      helpText: field.helpText ?? null,
      options: field.options ?? null,
      sectionId: field.section ? (sectionIds.get(field.section) ?? null) : null,
      hidden: field.hidden ?? false,
      internalOnly: field.internalOnly ?? false,
      sortOrder: index,
    });
  });
  staff.setFieldMapping('location_found', 'intake_location');
  staff.setFieldMapping('reason_for_surrender', 'surrender_reason');
  staff.setFeeRules(catalogue.feeRules);
  for (const type of CONTRACT_TYPES) staff.setContract(type, contracts[type] ?? '');
  const vetIds = catalogue.veterinarians.map(
    (vet) => staff.setVeterinarian({ id: seededUuid(random), ...vet }).id,
  );
  staff.setPetTemplate({
    id: seededUuid(random),
    name: catalogue.template.name,
    defaults: catalogue.template.defaults,
  });

  const adopterIds: string[] = [];
  const total = options.pets ?? DEFAULT_DEMO_PETS;
  // Dates move with today, so the Overview's months are alive on the day someone tries the demo. Adoptions draw
  // from their own sequence: the pets themselves stay what they were.
  const today = localCalendarDate(app.now());
  const outcomes = seededRandom(SEED + 1);
  app.sqlite.transaction(() => {
    const pictures = options.photoOrigin ? storeDemoPhotos(app, options.photoOrigin) : undefined;
    for (const [name, email, phone, address, status] of catalogue.people.adopters) {
      const person = app.people.create({
        type: 'adopter',
        name,
        email,
        phone,
        address,
        custom_field_data: { home_type: pick(['House', 'Apartment', 'Condo']), has_yard: chance(0.5) },
      });
      adopterIds.push(person.id);
      if (status !== 'active') staff.setPersonStatus(person.id, status as 'pending');
    }
    for (const [name, email, phone, address, status, capacity] of catalogue.people.fosters) {
      const person = app.people.create({
        type: 'foster',
        name,
        email,
        phone,
        address,
        capacity,
        custom_field_data: { species_accepted: some(SPECIES, 2), medical_fosters: chance(0.3) },
      });
      if (status !== 'active') staff.setPersonStatus(person.id, status as 'pending');
    }

    // Bulk load: index the pets for search once at the end ('rebuild') instead of row by row through the
    // insert trigger; this halves the time of a 100k-pet load. The trigger is restored as it was.
    const triggerSql = app.sqlite
      .prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'pets_fts_insert'")
      .pluck()
      .get() as string;
    app.sqlite.exec('DROP TRIGGER pets_fts_insert');
    const d = catalogue.descriptions;
    for (let index = 0; index < total; index++) {
      const roll = random();
      const species = roll < 0.55 ? 'dog' : roll < 0.9 ? 'cat' : 'rabbit';
      const name = pick(catalogue.names);
      const breeds = catalogue.breeds[species];
      const breed = chance(0.25) ? twoBreeds(pick(breeds), pick(breeds), breeds) : [pick(breeds)];
      const fill = (text: string) =>
        text
          .replaceAll('{name}', name)
          .replaceAll('{breed}', (breed[0] ?? '').toLowerCase())
          .replaceAll('{temper}', pick(d.tempers))
          .replaceAll('{origin}', pick(d.origins));
      const middles = d.middles[species];
      const firstMiddle = Math.floor(random() * middles.length);
      const secondMiddle = (firstMiddle + 1 + Math.floor(random() * (middles.length - 1))) % middles.length;
      const description = [pick(d.openers), middles[firstMiddle], middles[secondMiddle], pick(d.closers)]
        .map((sentence) => fill(sentence ?? ''))
        .join(' ')
        .replace(/\ba ([aeiou])/g, 'an $1');
      const statusRoll = random();
      let status: string | null = 'available';
      let customStatus: string | null = null;
      if (statusRoll < 0.05) customStatus = 'behavior';
      else if (statusRoll < 0.13) customStatus = 'meetGreet';
      else if (statusRoll < 0.16) customStatus = 'courtesy';
      else if (statusRoll < 0.22) status = 'hold';
      else if (statusRoll < 0.26) status = 'medicalTreatment';
      else if (statusRoll < 0.3) status = 'pending';
      else if (statusRoll < 0.33) status = 'fostered';
      const customStatusId = customStatus ? (statusIds.get(customStatus) ?? null) : null;
      if (customStatusId) status = null;
      const label = customStatus
        ? (catalogue.customStatuses.find((s) => s.key === customStatus)?.label ?? 'available')
        : (status ?? 'available');
      const drawnAgeGroup = pick(AGE_CATEGORIES);
      const pictureCount = 1 + Math.floor(random() * 3);
      const speciesPictures = pictures?.[species] ?? [];
      const images =
        speciesPictures.length === 0
          ? []
          : Array.from(
              { length: Math.min(2, pictureCount) },
              (_, k) => speciesPictures[(index * 7 + k * 3) % speciesPictures.length] as string,
            ).filter((url, k, all) => all.indexOf(url) === k);
      const intakeDay = addDays(today, -Math.floor(random() * (INTAKE_SPAN_DAYS + 1)));
      const intake = `${intakeDay}T00:00:00.000Z`;
      // About a fifth of the pets have found a home since (never the first ten: the demo's applications name them).
      const adoptedAfter = 7 + Math.floor(outcomes() * 120);
      const adoptedOn = addDays(intakeDay, adoptedAfter);
      const adopted =
        index >= 10 && outcomes() < 0.22 && adoptedOn < today && adopterIds.length > 0 ? adoptedOn : null;
      const adoptedBy = adopted ? (adopterIds[Math.floor(outcomes() * adopterIds.length)] ?? null) : null;
      const customData: Record<string, unknown> = {
        kennel:
          species === 'rabbit'
            ? 'Rabbit room'
            : species === 'cat'
              ? pick(['Cattery 1', 'Cattery 2'])
              : pick(['A1', 'A2', 'A3', 'B1', 'B2']),
        last_vaccination: intakeDay,
      };
      if (chance(0.4))
        customData.intake_location = pick(['River trail', 'Main Street', 'County road 9', 'Harbor park']);
      if (chance(0.2))
        customData.surrender_reason = pick(['Moving', 'Allergies', 'Landlord', 'Too many animals']);
      const columns: Omit<PetRow, 'seq' | 'is_public' | 'created_at' | 'updated_at'> = {
        id: seededUuid(random),
        name,
        species,
        age_category: drawnAgeGroup,
        sex: pick(SEXES),
        size: fittingSize(
          species,
          breed,
          species === 'dog' ? pick(SIZES) : pick(['xSmall', 'small', 'medium']),
        ),
        status: adopted ? 'adopted' : status,
        custom_status_id: adopted ? null : customStatusId,
        status_label: adopted ? 'adopted' : label,
        health: pick(HEALTH_VALUES.filter((h) => h !== 'poor')),
        breed: JSON.stringify(breed),
        color: JSON.stringify(
          some(catalogue.colors[species], 2).concat(pick(catalogue.colors[species])).slice(0, 2),
        ),
        age_years: drawnAgeGroup === 'youngest' ? '0' : String(1 + Math.floor(random() * 12)),
        age_months: String(Math.floor(random() * 12)),
        age_birthday: null,
        description,
        spayed: chance(0.8) ? 1 : 0,
        adoption_fee: chance(0.1) ? String(pick([50, 150, 250, 350])) : '',
        microchip_id: chance(0.85) ? String(985_000_000_000_000 + Math.floor(random() * 1e11)) : null,
        good_with: JSON.stringify(some(COMPATIBILITY_VALUES, 3)),
        bad_with: JSON.stringify(some(['cats', 'dogs', 'kids', 'otherPets'], 1)),
        temperaments: JSON.stringify(some(TEMPERAMENTS, 3)),
        image_urls: JSON.stringify(images),
        coat_length: fittingCoat(species, breed, pick(catalogue.coatLengths)),
        custom_field_data: JSON.stringify(customData),
        custom_id: `RAR-${String(index + 1).padStart(6, '0')}`,
        intake_date: intake,
        outcome_date: adopted ? `${adopted}T12:00:00.000Z` : null,
        location_found: null,
        reason_for_surrender: null,
        primary_veterinarian_id: chance(0.7) ? pick(vetIds) : null,
        show_public: chance(0.92) ? 1 : 0,
        // Both kept to the words that fit the pet's age once its age is mended, below.
        special_needs: JSON.stringify(chance(0.1) ? [pick(catalogue.specialNeeds)] : []),
        tags: JSON.stringify(some(catalogue.tags, 2)),
        status_change_notes: null,
        weight:
          species === 'dog' ? `${5 + Math.floor(random() * 40)} kg` : `${(1 + random() * 5).toFixed(1)} kg`,
        adopted_on: adopted,
        adopted_by: adoptedBy,
        deleted_at: null,
      };
      const age = fittingAge(
        drawnAgeGroup,
        Number(columns.age_years),
        Number(columns.age_months),
        Math.max(0, calendarMonthsBetween(intakeDay, today)),
      );
      columns.age_category = age.group;
      columns.age_years = String(age.years);
      columns.age_months = String(age.months);
      columns.weight = fittingWeight(
        species,
        columns.size,
        Number.parseFloat(columns.weight as string),
        age.years * 12 + age.months,
      );
      const fitting = (words: string) =>
        JSON.stringify((JSON.parse(words) as string[]).filter((word) => fitsAge(word, species, age.group)));
      columns.tags = fitting(columns.tags);
      columns.special_needs = fitting(columns.special_needs);
      app.pets.insertGenerated(columns);
    }
    app.sqlite.exec("INSERT INTO pets_fts (pets_fts) VALUES ('rebuild')");
    app.sqlite.exec(triggerSql);
  })();

  const available = app.sqlite
    .prepare("SELECT id FROM pets WHERE status = 'available' AND is_public = 1 ORDER BY seq LIMIT 3")
    .pluck()
    .all() as string[];
  const [firstAdopter, secondAdopter] = adopterIds;
  if (firstAdopter && available[0]) {
    const application = app.sqlite.transaction(() => {
      const person = app.people.create({
        type: 'adopter',
        name: 'Jordan Rivera',
        email: 'jordan.rivera@example.com',
        phone: '+1 555 0199',
        address: '41 Brook Lane, Riverbend',
        custom_field_data: { home_type: 'House', has_yard: true },
        application: { pet_ids: [available[0] as string], terms_accepted: true },
      });
      return person.application;
    })();
    if (application) staff.decideApplication(application.id, 'approved');
  }
  if (secondAdopter && available[1]) {
    app.sqlite.transaction(() =>
      app.people.create({
        type: 'adopter',
        name: 'Priya Nair',
        email: 'priya.nair@example.com',
        phone: null,
        address: '8 Lantern Street, Eastport',
        application: {
          pet_ids: [available[1] as string, ...(available[2] ? [available[2]] : [])],
          terms_accepted: true,
        },
      }),
    )();
  }
  return { loaded: true, pets: total };
}
