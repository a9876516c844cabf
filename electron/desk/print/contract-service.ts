import { CONTRACT_TYPES, type ContractType, type Person, type Pet } from '../../../shared/contract';
import { DEFAULT_CURRENCY } from '../../../shared/wording/money';
import {
  applicationById,
  applicationsOfPerson,
  getAdoptionFees,
  getContract,
  getPerson,
  getPet,
  type MirrorDb,
  type MirrorRecord,
  statement,
} from '../mirror';
import { type ContractPet, drawContract, MARGIN } from './contract';
import { explainFee } from './fee';
import { createDocument } from './pdf-document';
import { findPet, PrintError, type PrintedPdf, type PrintSettings, slug } from './print-service';
import { localToday } from './words';

/**
 * Pets an agreement is about when none are named: for an adopter, the pets the server records as adopted by them
 * (`adopted_by`, set with `adopted_on` when an adoption is approved). An application's agreement names the pets
 * applied for, or once approved those of them adopted by the applicant; a denied one has none.
 */
export function adoptedBy(db: MirrorDb, personId: string): MirrorRecord<Pet>[] {
  const rows = statement(
    db,
    `SELECT p.id FROM pet_adoption a JOIN pet p ON p.seq = a.seq
     WHERE a.adopted_by = ? AND a.presence != 'removed' ORDER BY a.seq`,
  ).all(personId) as { id: string }[];
  return rows.flatMap(({ id }) => {
    const pet = getPet(db, id);
    return pet ? [pet] : [];
  });
}

/**
 * What an agreement is printed for: a person (with the animals named, by default an adopter's adopted pets), or
 * an application (its applicant and the pets applied for, with their fees).
 */
export type ContractRequest =
  | { personId: string; petIds?: readonly string[] | undefined }
  | { applicationId: string };

/** The request for one id that names an application or a person (the CLI's `print contract <id>`). */
export function contractRequestFor(
  db: MirrorDb,
  id: string,
  petIds: readonly string[] = [],
): ContractRequest {
  const application = applicationById(db, id);
  if (!application) return { personId: id, petIds };
  if (petIds.length > 0) {
    throw new PrintError(
      'invalid_input',
      `"${id}" is an application: its agreement names the pets applied for. Leave out --pet, or give the person's id.`,
    );
  }
  return { applicationId: application.id };
}

interface ContractSubject {
  person: Person;
  type: ContractType;
  pets: MirrorRecord<Pet>[];
  /** An application still waiting for a decision: its agreement is a draft, naming every pet applied for. */
  waiting?: boolean;
}

function personOrThrow(db: MirrorDb, personId: string, what: string): Person {
  const person = getPerson(db, personId.trim())?.record;
  if (!person) throw new PrintError('not_found', `No ${what} "${personId}" is on this desk. ${SYNC_HINT}`);
  return person;
}

const SYNC_HINT = 'Check the id, or sync first.';

function subjectOf(db: MirrorDb, request: ContractRequest): ContractSubject {
  if ('personId' in request) {
    const person = personOrThrow(db, request.personId, 'person with id');
    if (request.petIds?.length) {
      return { person, type: person.type, pets: request.petIds.map((id) => findPet(db, id)) };
    }
    const adopted = person.type === 'adopter' ? adoptedBy(db, person.id) : [];
    if (adopted.length > 0) return { person, type: person.type, pets: adopted };
    // No pets chosen and none gone home with them: the agreement of their newest application still waiting for a
    // decision (a draft naming the pets applied for), as the Applications screen prints it.
    const waiting = applicationsOfPerson(db, person.id).findLast(
      (application) => application.status === 'submitted' && application.kind === person.type,
    );
    if (waiting) return subjectOf(db, { applicationId: waiting.id });
    return { person, type: person.type, pets: [] };
  }
  const application = applicationById(db, request.applicationId);
  if (!application) {
    throw new PrintError(
      'not_found',
      `No application with id "${request.applicationId}" is on this desk. A desk knows the applications it sent and, when it runs the shelter, all of them. ${SYNC_HINT}`,
    );
  }
  const person = personOrThrow(
    db,
    application.personId,
    `applicant of application ${application.id}: person`,
  );
  if (application.status === 'denied') {
    throw new PrintError(
      'invalid_input',
      `Application ${application.id} was denied: there is no agreement to print for it.`,
    );
  }
  const applied = application.petIds.map((id) => {
    const pet = getPet(db, id);
    if (!pet) {
      throw new PrintError(
        'not_found',
        `Pet ${id} of application ${application.id} is not on this desk. ${SYNC_HINT}`,
      );
    }
    return pet;
  });
  // Approved, it names the pets that went home with the applicant (an approval chooses among those applied for).
  const adopted = applied.filter((pet) => pet.record.adopted_by === person.id);
  const pets = application.status === 'approved' && adopted.length > 0 ? adopted : applied;
  const type = (CONTRACT_TYPES as readonly string[]).includes(application.kind)
    ? (application.kind as ContractType)
    : person.type;
  return { person, type, pets, waiting: application.status === 'submitted' };
}

/**
 * The agreement of a person's type (adopter, foster, volunteer, surrender) or of an application's kind, filled in
 * with the person, the animals (fees for an adoption), the date and signature lines.
 */
export async function printContract(
  db: MirrorDb,
  request: ContractRequest,
  settings: PrintSettings,
): Promise<PrintedPdf> {
  const { person, type, pets, waiting } = subjectOf(db, request);
  const contract = getContract(db, type);
  if (!contract) {
    throw new PrintError(
      'not_synced',
      `This desk has no ${type} contract text yet. Sync with your shelter's server, then print again (a desk that runs its shelter itself writes it under Contracts).`,
    );
  }
  if (contract.content.trim() === '') {
    throw new PrintError(
      'not_synced',
      `Your shelter's ${type} contract has no text yet. Write it under Contracts (on the desk that runs the shelter), then print again.`,
    );
  }
  const rules = getAdoptionFees(db).fees;
  const contractPets: ContractPet[] = pets.map(({ record }) =>
    type === 'adopter' ? { pet: record, fee: explainFee(record, rules, settings.currency) } : { pet: record },
  );
  const { doc, done } = await createDocument(settings.paper, `${type} agreement: ${person.name}`, {
    margin: MARGIN,
    bufferPages: true,
  });
  drawContract(
    doc,
    {
      type,
      markdown: contract.content,
      person,
      pets: contractPets,
      shelterName: settings.shelterName,
      currency: settings.currency ?? DEFAULT_CURRENCY,
      date: settings.today ?? localToday(),
      ...(waiting && {
        draft:
          'Draft: this application is waiting for a decision, and this agreement names every pet applied for. Once it is approved, print the agreement to sign: it names the pets that go home.',
      }),
    },
    settings.paper,
  );
  const pages = doc.bufferedPageRange().count;
  doc.end();
  const pdf = await done;
  const kind = type === 'surrender' ? 'surrender' : type === 'adopter' ? 'adoption' : type;
  return { filename: `${slug(`${kind}-agreement-${person.name}`)}.pdf`, pdf, pages };
}
