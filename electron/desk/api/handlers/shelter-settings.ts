import type { HandlerRegistry } from '../handler-registry';
import { staffCall } from './shelter-errors';
import type { ShelterHost } from './shelter-host';

/**
 * `shelter.settings.*` and the editors' saves: statuses, fields, mappings, fees, contracts, vets, templates, the
 * public address for photos.
 */
export function registerShelterSettingsHandlers(
  registry: HandlerRegistry,
  host: ShelterHost,
  follow: (metadata: boolean) => Promise<void>,
): void {
  /** Runs a staff change, then syncs this desk (metadata too) so forms and lists follow at once. */
  const change = async <T>(fn: () => T): Promise<T> => {
    const result = staffCall(fn);
    await follow(true);
    return result;
  };

  registry.handle('shelter.settings.get', () => {
    const staff = host.staff();
    const { sections, fields } = staff.listCustomFields();
    return {
      statuses: staff.listCustomStatuses(),
      sections,
      fields,
      mappings: staff.fieldMappings(),
      feeRules: staff.listFeeRules(),
      contracts: staff.listContracts(),
      veterinarians: staff.listVeterinarians(),
      templates: staff.listPetTemplates(),
      photoPublicOrigin: staff.photoPublicOrigin(),
    };
  });
  registry.handle('shelter.statuses.save', (input) =>
    change(() => ({ id: host.staff().setCustomStatus(input).id })),
  );
  registry.handle('shelter.sections.save', (input) =>
    change(() => host.staff().setCustomFieldSection(input)),
  );
  registry.handle('shelter.fields.save', (input) => change(() => host.staff().setCustomField(input)));
  registry.handle('shelter.fields.delete', ({ id }) =>
    change(() => {
      host.staff().deleteCustomField(id);
      return null;
    }),
  );
  registry.handle('shelter.mappings.set', ({ target, fieldKey }) =>
    change(() => {
      host.staff().setFieldMapping(target, fieldKey);
      return null;
    }),
  );
  registry.handle('shelter.fees.set', ({ rules }) =>
    change(() => {
      host.staff().setFeeRules(rules);
      return null;
    }),
  );
  registry.handle('shelter.contracts.set', ({ type, content }) =>
    change(() => {
      host.staff().setContract(type, content);
      return null;
    }),
  );
  registry.handle('shelter.vets.save', (input) => change(() => host.staff().setVeterinarian(input)));
  registry.handle('shelter.photos.setPublicOrigin', ({ origin }) =>
    change(() => host.staff().setPhotoPublicOrigin(origin)),
  );
  registry.handle('shelter.templates.save', (input) => change(() => host.staff().setPetTemplate(input)));
}
