import { describe, expect, it } from 'vitest';
import { CONTRACT_TYPES } from './enums';
import { ERROR_CODES, errorBodySchema } from './errors';
import {
  contractQuerySchema,
  peopleListQuerySchema,
  personCustomFieldsQuerySchema,
  petListQuerySchema,
} from './lists';
import { adoptionFeesResponseSchema, contractSchema, customFieldSchema } from './metadata';

describe('list queries', () => {
  it('limit defaults to 20 and is clamped into 1..100', () => {
    expect(petListQuerySchema.parse({}).limit).toBe(20);
    expect(petListQuerySchema.parse({ limit: '0' }).limit).toBe(1);
    expect(petListQuerySchema.parse({ limit: '-5' }).limit).toBe(1);
    expect(petListQuerySchema.parse({ limit: '1000' }).limit).toBe(100);
    expect(petListQuerySchema.parse({ limit: '37' }).limit).toBe(37);
  });

  it('a non-integer limit or offset, or a negative offset, is refused', () => {
    for (const query of [{ limit: '1.5' }, { limit: 'ten' }, { offset: '2.5' }, { offset: '-1' }]) {
      expect(petListQuerySchema.safeParse(query).success, JSON.stringify(query)).toBe(false);
    }
    expect(petListQuerySchema.parse({ offset: '40' }).offset).toBe(40);
  });

  it('species is one of the three, updated_since a date-time', () => {
    expect(petListQuerySchema.parse({ species: 'cat' }).species).toBe('cat');
    expect(petListQuerySchema.safeParse({ species: 'horse' }).success).toBe(false);
    expect(petListQuerySchema.safeParse({ updated_since: '2026-01-01T00:00:00Z' }).success).toBe(true);
    expect(petListQuerySchema.safeParse({ updated_since: 'yesterday' }).success).toBe(false);
  });

  it('people lists require a type and take a case-insensitive status', () => {
    expect(peopleListQuerySchema.safeParse({}).success).toBe(false);
    expect(peopleListQuerySchema.safeParse({ type: 'owner' }).success).toBe(false);
    expect(peopleListQuerySchema.parse({ type: 'foster', status: 'ACTIVE' }).status).toBe('active');
    expect(peopleListQuerySchema.safeParse({ type: 'adopter', status: 'approved' }).success).toBe(false);
  });

  it('person custom fields take adopter or foster; contracts take the four contract types', () => {
    expect(personCustomFieldsQuerySchema.safeParse({ type: 'volunteer' }).success).toBe(false);
    expect([...CONTRACT_TYPES]).toEqual(['adopter', 'foster', 'volunteer', 'surrender']);
    for (const type of CONTRACT_TYPES) expect(contractQuerySchema.safeParse({ type }).success).toBe(true);
    expect(contractQuerySchema.safeParse({ type: 'owner' }).success).toBe(false);
  });
});

describe('metadata and error shapes', () => {
  it('custom field entries carry every documented field', () => {
    const entry = {
      field_key: 'microchip_brand',
      label: 'Microchip brand',
      field_type: 'select',
      required: false,
      help_text: null,
      options: ['HomeAgain', 'AVID'],
      section: 'Medical',
      hidden: false,
      internal_only: true,
    };
    expect(customFieldSchema.safeParse(entry).success).toBe(true);
    for (const field of Object.keys(entry)) {
      const partial: Record<string, unknown> = { ...entry };
      delete partial[field];
      expect(customFieldSchema.safeParse(partial).success, field).toBe(false);
    }
  });

  it('fee entries and contracts', () => {
    const fees = { fees: [{ species: 'dog', attribute_type: 'base', attribute_value: '', adjustment: 150 }] };
    expect(adoptionFeesResponseSchema.safeParse(fees).success).toBe(true);
    expect(contractSchema.safeParse({ type: 'adopter', content: '# Terms', updated_at: null }).success).toBe(
      true,
    );
    expect(contractSchema.safeParse({ type: 'buyer', content: '', updated_at: null }).success).toBe(false);
  });

  it('an error body needs error, code and a UUID request_id', () => {
    const body = {
      error: 'Not found',
      code: 'not_found',
      request_id: '0b9d7b7e-2c1a-4e7a-9a53-6f1f3d9a7c11',
    };
    expect(errorBodySchema.safeParse(body).success).toBe(true);
    expect(errorBodySchema.safeParse({ ...body, request_id: 'abc' }).success).toBe(false);
    expect(errorBodySchema.safeParse({ error: 'x', request_id: body.request_id }).success).toBe(false);
    expect(ERROR_CODES).toContain('method_not_allowed');
  });
});
