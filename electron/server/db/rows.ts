/** Row shapes of the server database as better-sqlite3 returns them (booleans 0/1, JSON as text, ms timestamps). */

export interface PetRow {
  seq: number;
  id: string;
  name: string;
  species: string;
  age_category: string;
  sex: string;
  size: string;
  status: string | null;
  custom_status_id: string | null;
  status_label: string;
  health: string;
  breed: string;
  color: string;
  age_years: string | null;
  age_months: string | null;
  age_birthday: string | null;
  description: string;
  spayed: 0 | 1;
  adoption_fee: string;
  microchip_id: string | null;
  good_with: string;
  bad_with: string;
  temperaments: string;
  image_urls: string;
  coat_length: string | null;
  custom_field_data: string;
  custom_id: string | null;
  intake_date: string | null;
  outcome_date: string | null;
  location_found: string | null;
  reason_for_surrender: string | null;
  primary_veterinarian_id: string | null;
  show_public: 0 | 1;
  special_needs: string;
  tags: string;
  status_change_notes: string | null;
  weight: string | null;
  adopted_on: string | null;
  adopted_by: string | null;
  is_public: 0 | 1;
  deleted_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface PersonRow {
  seq: number;
  id: string;
  type: string;
  name: string;
  email: string | null;
  phone: string | null;
  address: string | null;
  status: string;
  status_change_notes: string | null;
  custom_field_data: string;
  tags: string;
  capacity: number | null;
  created_at: number;
  updated_at: number;
}

export interface CustomStatusRow {
  id: string;
  label: string;
  is_public: 0 | 1;
  is_active: 0 | 1;
  sort_order: number;
  created_at: number;
  updated_at: number;
}

export interface VeterinarianRow {
  id: string;
  name: string;
  clinic: string | null;
  phone: string | null;
  email: string | null;
  created_at: number;
  updated_at: number;
}

export interface PetTemplateRow {
  id: string;
  name: string;
  defaults: string;
  created_at: number;
  updated_at: number;
}

export interface CustomFieldSectionRow {
  id: string;
  entity: string;
  name: string;
  hidden: 0 | 1;
  sort_order: number;
}

export interface CustomFieldRow {
  id: string;
  entity: string;
  field_key: string;
  public_key: string | null;
  label: string;
  field_type: string;
  required: 0 | 1;
  help_text: string | null;
  options: string | null;
  section_id: string | null;
  hidden: 0 | 1;
  internal_only: 0 | 1;
  sort_order: number;
}

export interface FeeRuleRow {
  id: string;
  species: string;
  attribute_type: string;
  attribute_value: string;
  adjustment: number;
  sort_order: number;
}

export interface ContractRow {
  type: string;
  content: string;
  updated_at: number;
}

export interface ApiKeyRow {
  id: string;
  label: string;
  access: 'read' | 'write';
  /** Random per-key salt, hex (migration 0501). */
  key_salt: string;
  /** HMAC-SHA-256(salt, SHA-256(key)), hex. */
  key_hash: string;
  key_prefix: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  /** 1 for the key a standalone desk uses for its own shelter (migration 0902). */
  desk_own: 0 | 1;
}

export interface ApplicationRow {
  id: string;
  person_id: string;
  kind: string;
  pet_ids: string;
  status: string;
  adopted_pet_id: string | null;
  submitted_at: number;
  decided_at: number | null;
}

export interface IdempotencyRow {
  api_key_id: string;
  idempotency_key: string;
  fingerprint: string;
  status: number;
  body: string;
  created_at: number;
}

/** A stored Pet response (migration 0502). */
export interface PetBodyRow {
  seq: number;
  id: string;
  etag: string;
  body: string;
}

/** The FTS5 indexes as kysely sees them (rowid = the record's seq). */
interface FtsRow {
  rowid: number;
}

/** The kysely view of the database: list queries composed from parts are built with it (db/prepared-queries). */
export interface ServerSchema {
  pets_fts: FtsRow;
  people_fts: FtsRow;
  pet_bodies: PetBodyRow;
  pet_restamp_jobs: { id: number; condition: string; params: string; after_seq: number };
  people_restamp_jobs: { id: number; after_seq: number };
  pets: PetRow;
  people: PersonRow;
  custom_statuses: CustomStatusRow;
  veterinarians: VeterinarianRow;
  pet_templates: PetTemplateRow;
  custom_field_sections: CustomFieldSectionRow;
  custom_fields: CustomFieldRow;
  field_mappings: { target: string; field_key: string };
  fee_rules: FeeRuleRow;
  contracts: ContractRow;
  api_keys: ApiKeyRow;
  applications: ApplicationRow;
  idempotency_keys: IdempotencyRow;
  photos: PhotoRow;
  server_settings: { name: string; value: string };
}

export interface PhotoRow {
  sha256: string;
  content_type: string;
  bytes: Buffer;
  width: number;
  height: number;
  uploaded_at: number;
  unreferenced_since: number | null;
}
