import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Loader,
  Modal,
  Radio,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconCheck,
  IconChevronRight,
  IconInbox,
  IconUserCog,
  IconX,
} from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { DENIED_PERSON_STATUSES, PERSON_CREATE_STATUSES } from '../../../shared/contract';
import type { ApplicationSummary } from '../../../shared/desk-api';
import { listInWords } from '../../../shared/wording/lists';
import { useDesk, useDeskQuery } from '../bridge/hooks';
import { APPLICATION_STATUS_WORDS } from '../components/applications-list';
import { BusyButton } from '../components/busy-button';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { EmptyState } from '../components/empty-state';
import { ScreenHeader } from '../components/screen-header';
import { formatMomentDate } from '../lib/dates';
import { useReloadOnChange } from '../lib/live-data';
import { useFocusBack } from '../lib/use-focus-back';
import { humanize, statusColor } from '../lib/words';
import { PersonDrawer } from '../people/person-drawer';
import { PetDrawer } from '../pets/pet-drawer';
import { ApplicationContractButton } from '../print/application-contract-button';
import { firstToPlace, notYetAvailableNotice } from './approval-notices';
import { PersonStatusModal } from './person-status-modal';
import { StandaloneOnly, useAction } from './use-shelter';

type Filter = 'submitted' | 'approved' | 'denied';

/** A decision just saved, confirmed above the list (its card leaves the Waiting list at once). */
interface Decided {
  personName: string;
  decision: 'approved' | 'denied';
  kind: ApplicationSummary['kind'];
  /** The pets that went home or to the foster (approvals), as one phrase: "Chester and Sunny". */
  petNames: string | undefined;
  withNote: boolean;
}

function DecidedAlert({ decided, onClose }: { decided: Decided; onClose(): void }) {
  const { personName, decision, kind, petNames, withNote } = decided;
  const approved = decision === 'approved';
  const outcome = kind === 'adopter' ? 'adopted' : 'fostered';
  return (
    <Alert
      color={approved ? 'sage' : 'gray'}
      variant="light"
      icon={approved ? <IconCheck aria-hidden /> : <IconX aria-hidden />}
      title={approved ? 'Application approved' : 'Application denied'}
      role="status"
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={onClose}
    >
      {approved
        ? `${personName}’s application is approved${petNames ? `: ${petNames} ${petNames.includes(' and ') ? 'are' : 'is'} ${outcome} by ${personName}` : ''}. It is listed under Approved.`
        : `${personName}’s application is denied. It is listed under Denied${withNote ? ' with its note' : ''}.`}
    </Alert>
  );
}

/** The applications inbox of a standalone shelter: waiting applications, approved and denied ones. */
export function ApplicationsScreen() {
  return (
    <>
      <ScreenHeader
        title="Applications"
        description="Adoption and foster applications: those waiting for a decision, and those decided, with their notes. Approving one marks the pets chosen adopted (or fostered) for every desk."
      />
      <StandaloneOnly what="application decisions">{() => <Inbox />}</StandaloneOnly>
    </>
  );
}

const FILTERS: Array<{ value: Filter; label: string }> = (['submitted', 'approved', 'denied'] as const).map(
  (value) => ({ value, label: APPLICATION_STATUS_WORDS[value] }),
);

function Inbox() {
  const [filter, setFilter] = useState<Filter>('submitted');
  const list = useDeskQuery('shelter.applications.list', { status: filter });
  const counts = useDeskQuery('shelter.applications.counts');
  const reload = () => {
    list.reload();
    counts.reload();
  };
  useReloadOnChange(['pets', 'adopters', 'fosters'], reload);
  const [deciding, setDeciding] = useState<{
    application: ApplicationSummary;
    decision: 'approved' | 'denied';
  }>();
  const [person, setPerson] = useState<{ id: string; name: string }>();
  const [decided, setDecided] = useState<Decided>();
  // A pet or applicant opens over the inbox, so closing it returns to the card.
  const [openPet, setOpenPet] = useState<string | null>(null);
  const [openPerson, setOpenPerson] = useState<string | null>(null);

  return (
    <Stack gap="md">
      {decided && <DecidedAlert decided={decided} onClose={() => setDecided(undefined)} />}
      <SegmentedControl
        aria-label="Show applications"
        value={filter}
        onChange={(value) => setFilter(value as Filter)}
        data={FILTERS.map(({ value, label }) => ({
          value,
          label: counts.data ? `${label} (${counts.data[value]})` : label,
        }))}
        fullWidth
        maw={420}
      />
      {list.error && <DeskErrorAlert error={list.error} title="The applications did not load" />}
      {!list.data && !list.error && <Loader aria-label="Loading applications" />}
      {list.data?.length === 0 && (
        <EmptyState
          icon={IconInbox}
          title={filter === 'submitted' ? 'No applications waiting' : `Nothing ${filter} yet`}
        >
          {filter === 'submitted'
            ? 'New adoption and foster applications show here as soon as they arrive, from any desk or your website.'
            : 'Decided applications are kept here with their notes.'}
        </EmptyState>
      )}
      {list.data?.map((application) => (
        <ApplicationCard
          key={application.id}
          application={application}
          onDecide={(decision) => setDeciding({ application, decision })}
          onOpenPet={setOpenPet}
          onOpenApplicant={() => setOpenPerson(application.personId)}
          onPersonStatus={() =>
            setPerson({
              id: application.personId,
              name: application.personName,
              ...(application.personStatus && { status: application.personStatus }),
            })
          }
        />
      ))}
      <DecisionModal
        key={deciding?.application.id ?? 'none'}
        deciding={deciding}
        onClose={() => setDeciding(undefined)}
        onDone={(done) => {
          setDecided(done);
          reload();
        }}
      />
      <PersonStatusModal
        key={person?.id ?? 'nobody'}
        person={person}
        onClose={() => setPerson(undefined)}
        onSaved={reload}
      />
      <PetDrawer id={openPet} onClose={() => setOpenPet(null)} onOpen={setOpenPet} />
      <PersonDrawer id={openPerson} onClose={() => setOpenPerson(null)} onOpen={setOpenPerson} />
    </Stack>
  );
}

function ApplicationCard({
  application,
  onDecide,
  onPersonStatus,
  onOpenPet,
  onOpenApplicant,
}: {
  application: ApplicationSummary;
  onDecide(decision: 'approved' | 'denied'): void;
  onPersonStatus(): void;
  onOpenPet(petId: string): void;
  onOpenApplicant(): void;
}) {
  const open = application.status === 'submitted';
  return (
    <Card
      withBorder
      radius="lg"
      p="lg"
      component="article"
      aria-label={`Application from ${application.personName}`}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        {/* The details give way (they wrap); the applicant's status keeps its whole width, also at 200 % zoom. */}
        <Stack gap={4} flex={1} miw={0}>
          <Group gap="xs">
            <Title order={3} size="h4">
              <Anchor
                component="button"
                type="button"
                inherit
                c="inherit"
                ta="start"
                onClick={onOpenApplicant}
              >
                {application.personName}
              </Anchor>
            </Title>
            <Badge variant="light" color={application.kind === 'adopter' ? 'sage' : 'grape'}>
              {application.kind === 'adopter' ? 'Adoption' : 'Foster'}
            </Badge>
            {!open && (
              <Badge
                variant="outline"
                color={application.status === 'approved' ? 'teal' : 'red'}
                className="badge-wraps"
              >
                {humanize(application.status)} {formatMomentDate(application.decidedAt)}
              </Badge>
            )}
          </Group>
          {/* A narrow card breaks the line between its parts, never inside a phone number or a date. */}
          <Text size="sm" c="dimmed">
            {[...contactOf(application), `submitted ${formatMomentDate(application.submittedAt)}`].map(
              (part, index) => (
                <Fragment key={part}>
                  {index > 0 && ' '}
                  <span style={{ whiteSpace: 'nowrap' }}>{index > 0 ? `· ${part}` : part}</span>
                </Fragment>
              ),
            )}
          </Text>
        </Stack>
        <Button
          variant="subtle"
          size="xs"
          leftSection={<IconUserCog aria-hidden size={16} />}
          onClick={onPersonStatus}
          style={{ flexShrink: 0 }}
        >
          {application.personStatus ? `Applicant: ${humanize(application.personStatus)}` : 'Applicant status'}
        </Button>
      </Group>
      <Group gap="xs" mt="sm">
        {application.pets.map((pet) => {
          const species = pet.species ? ` (${pet.species.toLowerCase()})` : '';
          if (pet.deleted) {
            return (
              <Badge key={pet.id} variant="light" color="gray" size="lg">
                {pet.name}
                {species} · removed
              </Badge>
            );
          }
          // An approval names the pets that went; the others stay as they were, and the chip says so.
          const leftOut = application.status === 'approved' && !application.placedPetIds.includes(pet.id);
          const who = [pet.name, pet.species.toLowerCase(), pet.customId].filter(Boolean).join(', ');
          return (
            <Badge
              key={pet.id}
              component="button"
              type="button"
              variant={leftOut ? 'outline' : 'light'}
              color={statusColor(pet.status)}
              size="lg"
              style={{ cursor: 'pointer' }}
              rightSection={<IconChevronRight aria-hidden size={14} />}
              title={who}
              aria-label={`Open ${who} (${humanize(pet.status)}${leftOut ? ', not chosen' : ''})`}
              onClick={() => onOpenPet(pet.id)}
            >
              {pet.name}
              {species} · {humanize(pet.status)}
              {leftOut && ' · not chosen'}
            </Badge>
          );
        })}
      </Group>
      {application.flag && (
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlertTriangle aria-hidden />}
          mt="sm"
          title="Check before deciding"
        >
          {application.flag}
        </Alert>
      )}
      {application.note && (
        <Text size="sm" mt="sm">
          <b>Note:</b> {application.note}
        </Text>
      )}
      <Group mt="md" gap="sm" align="flex-start">
        {open && (
          <>
            <Button leftSection={<IconCheck aria-hidden size={18} />} onClick={() => onDecide('approved')}>
              Approve
            </Button>
            <Button
              variant="default"
              color="red"
              leftSection={<IconX aria-hidden size={18} />}
              onClick={() => onDecide('denied')}
            >
              Deny
            </Button>
          </>
        )}
        {application.status !== 'denied' && (
          <ApplicationContractButton applicationId={application.id} kind={application.kind} />
        )}
      </Group>
    </Card>
  );
}

/** The denial's choice that leaves the applicant's status as it is. */
const UNCHANGED = 'unchanged';

function DecisionModal({
  deciding,
  onClose,
  onDone,
}: {
  deciding: { application: ApplicationSummary; decision: 'approved' | 'denied' } | undefined;
  onClose(): void;
  onDone(decided: Decided): void;
}) {
  const api = useDesk();
  const action = useAction();
  const [note, setNote] = useState('');
  // What the applicant becomes with a denial: as they are (pending, say, with another application waiting), or not.
  const [personStatus, setPersonStatus] = useState<string>(UNCHANGED);
  const currentStatus = deciding?.application.personStatus ?? null;
  // A decision the staff took already (denied, suspended, blocked) is not for a denial to change.
  const undecided =
    currentStatus === null || PERSON_CREATE_STATUSES.some((status) => status === currentStatus);
  const personStatuses = [
    {
      value: UNCHANGED,
      label: currentStatus ? `Stays ${humanize(currentStatus).toLowerCase()}` : 'Stays as they are',
    },
    ...DENIED_PERSON_STATUSES.filter((status) => status !== currentStatus).map((status) => ({
      value: status,
      label: status === 'denied' ? 'Denied (may not adopt)' : 'Inactive',
    })),
  ];
  const available = deciding?.application.pets.filter((pet) => !pet.deleted) ?? [];
  const approving = deciding?.decision === 'approved';
  const adoption = deciding?.application.kind === 'adopter';
  // One pet is chosen to begin with (`firstToPlace`); a pair adopted together is ticked together.
  const [petIds, setPetIds] = useState(() => {
    const first = firstToPlace(available);
    return first ? [first.id] : [];
  });
  const chosen = available.filter((pet) => petIds.includes(pet.id));
  // The shelter refuses to approve the adoption of a pet adopted already: said before Approve, not after.
  const adoptedAlready =
    approving && adoption ? chosen.filter((pet) => pet.status.toLowerCase() === 'adopted') : [];
  const noneChosen = approving && available.length > 0 && chosen.length === 0;
  const notYetAvailable = approving ? notYetAvailableNotice(chosen, adoption) : undefined;
  useFocusBack(deciding !== undefined);

  async function confirm() {
    if (!deciding) return;
    const done = await action.run(() =>
      api.call('shelter.applications.decide', {
        id: deciding.application.id,
        decision: deciding.decision,
        ...(note.trim() && { note: note.trim() }),
        ...(approving && chosen.length > 0 && { petIds: chosen.map((pet) => pet.id) }),
        ...(!approving && (personStatus === 'inactive' || personStatus === 'denied') && { personStatus }),
      }),
    );
    if (done) {
      onDone({
        personName: deciding.application.personName,
        decision: deciding.decision,
        kind: deciding.application.kind,
        petNames: approving && chosen.length > 0 ? listInWords(chosen.map((pet) => pet.name)) : undefined,
        withNote: note.trim() !== '',
      });
      onClose();
    }
  }

  return (
    <Modal
      opened={deciding !== undefined}
      onClose={onClose}
      centered
      title={`${approving ? 'Approve' : 'Deny'} ${deciding?.application.personName ?? ''}’s application`}
    >
      <Stack gap="sm">
        {approving && available.length > 1 && (
          <Checkbox.Group
            label={adoption ? 'Which pets go home?' : 'Which pets go to this foster?'}
            description="Tick each pet that goes together."
            value={petIds}
            onChange={setPetIds}
            error={noneChosen ? 'Choose at least one pet.' : undefined}
          >
            <Stack gap={6} mt={6}>
              {available.map((pet) => (
                <Checkbox key={pet.id} value={pet.id} label={`${pet.name} (${humanize(pet.status)})`} />
              ))}
            </Stack>
          </Checkbox.Group>
        )}
        {adoptedAlready.length > 0 && (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
            {listInWords(adoptedAlready.map((pet) => pet.name))} {adoptedAlready.length > 1 ? 'are' : 'is'}{' '}
            already adopted: this approval would be refused. Leave{' '}
            {adoptedAlready.length > 1 ? 'them' : 'that pet'} out, or deny this application instead.
          </Alert>
        )}
        {notYetAvailable && (
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
            {notYetAvailable}
          </Alert>
        )}
        <Text size="sm" c="dimmed">
          {approving
            ? adoption
              ? 'The pets chosen become adopted today by this person, on every desk. Other open applications for them are flagged.'
              : 'The pets chosen are marked fostered, on every desk.'
            : 'The application is closed as denied. The applicant’s record stays.'}
        </Text>
        {!approving && undecided && (
          <Radio.Group
            label={`Then ${deciding?.application.personName ?? 'the applicant'} is`}
            value={personStatus}
            onChange={setPersonStatus}
          >
            <Group gap="md" mt={6}>
              {personStatuses.map((option) => (
                <Radio key={option.value} value={option.value} label={option.label} />
              ))}
            </Group>
          </Radio.Group>
        )}
        <Textarea
          label="Note"
          description="Kept with the decision for your colleagues."
          autosize
          minRows={2}
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
        />
        {action.error && <DeskErrorAlert error={action.error} title="No decision was saved" />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <BusyButton
            color={approving ? undefined : 'red'}
            onClick={() => void confirm()}
            loading={action.busy}
            disabled={adoptedAlready.length > 0 || noneChosen}
          >
            {approving ? 'Approve' : 'Deny'}
          </BusyButton>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The applicant's email and phone, as far as known. */
function contactOf(application: { personEmail: string | null; personPhone: string | null }): string[] {
  const known = [application.personEmail, application.personPhone].filter((part): part is string =>
    Boolean(part),
  );
  return known.length > 0 ? known : ['No email or phone'];
}
