import { describe, expect, it } from 'vitest';
import { headerKey } from './fields';
import { cellValue, readValue } from './values';
import { readDate } from './written-dates';

const context = { statusLabels: new Map([['bigdogsroom', 'Big Dogs Room']]) };
const read = (kind: Parameters<typeof readValue>[0], text: string) => readValue(kind, text, context);

describe('import values as people write them', () => {
  it('refuses a microchip or phone a spreadsheet shortened (9.85112E+14), and keeps every other as written', () => {
    for (const text of ['9.85112E+14', '9,85112E+14', '4.47911e+11', '1E+15']) {
      const refused = read('long-number', text);
      expect(refused.ok).toBe(false);
      expect(refused).toMatchObject({
        reason: expect.stringMatching(/^".+" is a long number a spreadsheet shortened/),
      });
    }
    for (const text of [
      '985112001234567',
      '985-112-001-234-567',
      '0A1B2C3D4E',
      '1234567E89',
      '+44 7911 123456',
    ]) {
      expect(read('long-number', text)).toEqual({ ok: true, value: text });
    }
  });

  it('reads sexes, species, booleans and sizes in their usual spellings', () => {
    for (const text of ['M', 'Male', 'male', ' MALE '])
      expect(read('sex', text.trim())).toEqual({ ok: true, value: 'male' });
    expect(read('sex', 'F')).toEqual({ ok: true, value: 'female' });
    expect(read('sex', 'X')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('"X" is not a sex'),
    });
    expect(read('species', 'Canine')).toEqual({ ok: true, value: 'dog' });
    expect(read('species', 'Feline')).toEqual({ ok: true, value: 'cat' });
    expect(read('species', 'Parrot')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('"Parrot" is not a species the desk knows: write one of dog, cat'),
    });
    // A typo of one is named.
    expect(read('species', 'Dgo')).toMatchObject({
      ok: false,
      reason: '"Dgo" is not a species the desk knows: did you mean "dog"? Write one of dog, cat, rabbit',
    });
    for (const text of ['Yes', 'Y', '1', 'true'])
      expect(read('boolean', text)).toEqual({ ok: true, value: true });
    for (const text of ['No', 'n', '0']) expect(read('boolean', text)).toEqual({ ok: true, value: false });
    expect(read('size', 'Extra Large')).toEqual({ ok: true, value: 'xLarge' });
  });

  it('turns weights into kilograms and refuses units it does not know', () => {
    expect(read('weight', '12 kg')).toEqual({ ok: true, value: '12 kg' });
    expect(read('weight', '26 lb')).toEqual({ ok: true, value: '11.8 kg' });
    expect(read('weight', '850 g')).toEqual({ ok: true, value: '0.9 kg' });
    expect(read('weight', '12,5kg')).toEqual({ ok: true, value: '12.5 kg' });
    expect(readValue('weight', '22', { ...context, weightUnit: 'lb' })).toEqual({ ok: true, value: '10 kg' });
    expect(read('weight', '3 st')).toMatchObject({ ok: false, reason: expect.stringContaining('"st"') });
  });

  it('reads dates in their written forms and asks for the order only where it is ambiguous', () => {
    const day = (text: string, format?: 'DMY' | 'MDY' | 'YMD') => readDate(text, format);
    expect(day('2025-03-04')).toEqual({ ok: true, value: '2025-03-04T00:00:00Z' });
    expect(day('2025-03-04T10:30:00Z')).toEqual({ ok: true, value: '2025-03-04T10:30:00Z' });
    expect(day('4 March 2025')).toEqual({ ok: true, value: '2025-03-04T00:00:00Z' });
    expect(day('March 4th, 2025')).toEqual({ ok: true, value: '2025-03-04T00:00:00Z' });
    expect(day('25/03/2025')).toEqual({ ok: true, value: '2025-03-25T00:00:00Z' });
    expect(day('03/25/2025')).toEqual({ ok: true, value: '2025-03-25T00:00:00Z' });
    // Refused with the choice that mends it, which each place asks for in its own words.
    expect(day('03/04/2025')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('could be 3 April or 4 March'),
      fix: 'date-order',
    });
    expect(day('03/04/2025')).not.toMatchObject({ reason: expect.stringContaining('--date-format') });
    expect(day('03/04/2025', 'DMY')).toEqual({ ok: true, value: '2025-04-03T00:00:00Z' });
    expect(day('03/04/2025', 'MDY')).toEqual({ ok: true, value: '2025-03-04T00:00:00Z' });
    expect(day('31/02/2025')).toMatchObject({ ok: false });
    // A date that is none in the order chosen but one the other way round says the order may be the wrong one.
    expect(day('12/15/2023', 'DMY')).toEqual({
      ok: false,
      reason:
        '"12/15/2023" is not a date read day first, as chosen (there is no month 15); read month first it is ' +
        '15 December 2023: if the file writes its dates month first, its other dates were read the wrong way round too',
      fix: 'date-order',
    });
    expect(day('25/03/2025', 'MDY')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('25 March 2025'),
    });
    expect(day('30/02/2025', 'DMY')).toEqual({ ok: false, reason: '"30/02/2025" is not a date' });
    expect(day('soon')).toMatchObject({ ok: false, reason: expect.stringContaining('not a date') });
  });

  it('matches custom statuses by label, and reads exported cells back as they were', () => {
    expect(read('status', 'big dogs room')).toEqual({ ok: true, value: 'Big Dogs Room' });
    expect(read('status', 'Medical Hold')).toEqual({ ok: true, value: 'medicalHold' });
    expect(read('status', 'Adoptable')).toEqual({ ok: true, value: 'available' });
    expect(read('list', '["Labrador","Mixed"]')).toEqual({ ok: true, value: ['Labrador', 'Mixed'] });
    expect(read('list', 'Labrador / Mixed')).toEqual({ ok: true, value: ['Labrador', 'Mixed'] });
    expect(cellValue("'-friendly")).toBe('-friendly');
    expect(headerKey('Animal Name')).toBe(headerKey('animal_name'));
    expect(headerKey('Zoë')).toBe('zoe');
  });

  it('refuses an unknown status with the likely one and each status once in words; a person status with the four a new person may have', () => {
    const shelter = {
      statusLabels: new Map([
        ['adopted', 'adopted'],
        ['medicaltreatment', 'medicalTreatment'],
        ['behaviorevaluation', 'Behavior Evaluation'],
      ]),
    };
    const refused = readValue('status', 'On hold - medical', shelter);
    const reason = refused.ok ? '' : refused.reason;
    expect(reason).toMatch(
      /^"On hold - medical" is neither a status .*: did you mean "medical hold"\? Write one of /,
    );
    expect(reason).toContain('returned to owner, stray');
    expect(reason).toContain('Behavior Evaluation');
    expect(reason).not.toMatch(/returnedToOwner|medicalTreatment/);
    expect(reason.match(/\badopted\b/g)).toHaveLength(1);
    const typo = readValue('status', 'Avialable', shelter);
    expect(typo.ok ? '' : typo.reason).toContain('did you mean "available"?');
    const person = read('person-status', 'Do not adopt');
    expect(person.ok ? '' : person.reason).toBe(
      '"Do not adopt" is not a person status the desk knows: write one of pending, active, training, inactive ' +
        "(denied, suspended, blocked are the staff's decisions: kept for a person already on the desk, set on the " +
        'desk after the import for a new one)',
    );
    expect(read('person-status', 'Blocked')).toEqual({ ok: true, value: 'blocked' });
    // A cell that says no, or names a status only in passing, is given no likely one.
    for (const cell of ['Not available', 'Unadoptable', 'Mother with litter']) {
      const refusedCell = readValue('status', cell, shelter);
      expect(refusedCell.ok ? '' : refusedCell.reason, cell).not.toContain('did you mean');
    }
    const nothingLike = readValue('status', 'Zzz', shelter);
    expect(nothingLike.ok ? '' : nothingLike.reason).not.toContain('did you mean');
  });
});
