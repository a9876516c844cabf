import type { CustomField, Pet } from '../../../shared/contract';

/**
 * The address of a pet's public page, when the desk honestly knows one.
 *
 * The API has no field for it: a pet response carries photos (`image_urls`) but no page address, and the public list
 * says only that a pet is shown, not where. So a card prints a QR code only when the shelter keeps the address in a
 * pet custom field: a field of type `url`, or one whose key or label names a page, link, listing or URL, holding an
 * absolute http(s) address. And only for a pet the public can see (`show_public`, still in the server's public list):
 * a code that leads to a hidden pet's dead page would mislead the adopter. Nothing is guessed from the shelter's name
 * or the pet's id.
 */
export function publicPageAddress(
  pet: Pet,
  petFields: readonly CustomField[],
  presence: string,
): string | undefined {
  if (!pet.show_public || presence !== 'listed') return undefined;
  const named = /(page|link|listing|url|profile|website)/i;
  const candidates = petFields.filter(
    (field) =>
      !field.internal_only &&
      (field.field_type.toLowerCase() === 'url' || named.test(field.field_key) || named.test(field.label)),
  );
  for (const field of candidates) {
    const value = pet.custom_field_data[field.field_key];
    if (typeof value !== 'string') continue;
    try {
      const url = new URL(value.trim());
      if (url.protocol === 'https:' || url.protocol === 'http:') return url.href;
    } catch {
      // Not an address: try the next field.
    }
  }
  return undefined;
}

/** The address without its scheme and trailing slash, as printed under the code ("rescue.org/pets/rex"). */
export function shortLink(address: string): string {
  return address.replace(/^https?:\/\//, '').replace(/\/$/, '');
}
