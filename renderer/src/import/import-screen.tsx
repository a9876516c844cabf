import {
  Button,
  Card,
  Checkbox,
  FileButton,
  Group,
  Progress,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconFileSpreadsheet, IconFileUpload, IconListCheck } from '@tabler/icons-react';
import { type DragEvent, useEffect, useRef, useState } from 'react';
import {
  type DateFormat,
  type ImportKind,
  type ImportPreview,
  type ImportReport,
  othersToWrite,
} from '../../../shared/desk-api';
import { useDesk } from '../bridge/hooks';
import { BusyButton } from '../components/busy-button';
import { DeskErrorAlert } from '../components/desk-error-alert';
import { ScreenHeader } from '../components/screen-header';
import { useStandalone } from '../lib/connection';
import { scrollBehavior } from '../lib/motion';
import { useFocusWhen } from '../lib/use-focus-when';
import { useAction } from '../shelter/use-shelter';
import { type ChosenTargets, mapsDates } from './chosen-targets';
import { describeFile } from './file-description';
import { importLabel, KIND_WORDS, nothingLeftWords, UPDATE_EXISTING_LABEL } from './import-words';
import { MappingTable } from './mapping-table';
import { ReportView } from './report-view';
import { SaveRejectedRows } from './save-rejected-rows';
import { SHARED_EMAILS_LABEL } from './shared-emails';
import { uploadFile } from './upload-file';

const DATE_ORDERS = [
  { value: 'auto', label: 'Work it out from the file (ask when unsure)' },
  { value: 'DMY', label: 'Day / month / year (31/12/2025)' },
  { value: 'MDY', label: 'Month / day / year (12/31/2025)' },
  { value: 'YMD', label: 'Year / month / day (2025/12/31)' },
];

/**
 * Moving in (issue #33): a spreadsheet or another system's export is dropped here, its columns are matched to the
 * desk's fields (each can be changed), a check reports every row it would reject, and the import saves the rest as
 * ordinary local records that the outbox sends.
 */
export function ImportScreen() {
  const api = useDesk();
  const standalone = useStandalone();
  const [kind, setKind] = useState<ImportKind>('pets');
  /** The kind chosen now, for a file that arrives after Pets, Adopters or Fosters was switched on its way. */
  const kindNow = useRef(kind);
  kindNow.current = kind;
  const [preview, setPreview] = useState<ImportPreview>();
  const [chosen, setChosen] = useState<ChosenTargets>({});
  const [dateOrder, setDateOrder] = useState('auto');
  const [report, setReport] = useState<ImportReport>();
  const [skipBad, setSkipBad] = useState(false);
  const [updateExisting, setUpdateExisting] = useState(false);
  const [sharedEmails, setSharedEmails] = useState(false);
  const [showPublic, setShowPublic] = useState(false);
  const [progress, setProgress] = useState<number>();
  /** The name of the file on its way to the desk (its columns are not known until it has arrived). */
  const [sending, setSending] = useState<string>();
  const [dragging, setDragging] = useState(false);
  const reading = useAction();
  const checking = useAction();
  const importing = useAction();

  const request = () =>
    preview && {
      token: preview.token,
      kind,
      mapping: chosen,
      showPublic,
      sharedEmails: kind !== 'pets' && sharedEmails,
      ...(dateOrder !== 'auto' && { dateFormat: dateOrder as DateFormat }),
      ...(preview.sheet && { sheet: preview.sheet }),
    };

  async function choose(file: File | null) {
    if (!file) return;
    // The file chosen before is not needed any more: its columns go, so that nothing checks it meanwhile.
    if (preview) void api.call('import.discard', { token: preview.token }).catch(() => undefined);
    setPreview(undefined);
    setReport(undefined);
    setChosen({});
    setShowPublic(false);
    setProgress(0);
    setSending(file.name);
    let read = await reading.run(() => uploadFile(api, file, kind, setProgress));
    if (read && kindNow.current !== kind) read = await readAs(read, { kind: kindNow.current });
    setProgress(undefined);
    setSending(undefined);
    if (read) setPreview(read);
  }

  /** The staged file read again as another kind or from another sheet. */
  function readAs(staged: ImportPreview, next: { kind?: ImportKind; sheet?: string }) {
    const sheet = next.sheet ?? staged.sheet;
    return reading.run(() =>
      api.call('import.preview', { token: staged.token, kind: next.kind ?? kind, ...(sheet && { sheet }) }),
    );
  }

  async function reread(next: { kind?: ImportKind; sheet?: string }) {
    if (!preview) return;
    setReport(undefined);
    setChosen({});
    const read = await readAs(preview, next);
    if (read) setPreview(read);
  }

  async function check() {
    const input = request();
    if (!input) return;
    const checked = await checking.run(() => api.call('import.check', input));
    if (checked) setReport(checked);
  }

  async function runImport() {
    const input = request();
    if (!input) return;
    const done = await importing.run(() => api.call('import.run', { ...input, skipBad, updateExisting }));
    if (done) setReport(done);
  }

  function onDrop(event: DragEvent<HTMLElement>) {
    event.preventDefault();
    setDragging(false);
    void choose(event.dataTransfer.files[0] ?? null);
  }

  const finished = report && !report.dryRun && !report.blocked;
  // The Import button goes once the import is done: the focus goes on to what comes next, not to the page.
  const openImported = useFocusWhen<HTMLAnchorElement>(finished);
  // A check's answer comes below the column choices, out of sight on most screens: it is brought into view (a
  // finished import's is too, by the focus going to what comes next).
  const reportCard = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (report && !finished)
      reportCard.current?.scrollIntoView({ block: 'start', behavior: scrollBehavior() });
  }, [report, finished]);
  // Every choice that changes which rows are rejected clears the report, so the request now is the one it answered.
  const checkedRequest = report && request();
  const wouldImport = report ? report.totals.new : 0;
  const wouldUpdate = report && updateExisting ? report.totals.updatable : 0;
  const blockedWithoutSkip = report ? report.totals.rejected > 0 && !skipBad : true;
  // Nothing the file holds could be written: no new rows, and none the desk could update.
  const nothingToImport = report ? !othersToWrite(report.totals) : false;

  return (
    <>
      <ScreenHeader
        title="Import"
        description="Bring your animals and people over from a spreadsheet or another shelter system. Nothing is saved until you have checked the file."
      />
      <Stack gap="lg">
        <Card withBorder radius="lg" p="lg">
          <Group justify="space-between" align="flex-start" mb="md">
            <Stack gap={2}>
              <Title order={3} size="h4">
                1. The file
              </Title>
              <Text size="sm" c="dimmed">
                CSV (comma, semicolon or tab separated, any common encoding) or Excel .xlsx.
              </Text>
            </Stack>
            <SegmentedControl
              aria-label="What the file holds"
              value={kind}
              onChange={(value) => {
                setKind(value as ImportKind);
                void reread({ kind: value as ImportKind });
              }}
              data={[
                { value: 'pets', label: 'Pets' },
                { value: 'adopters', label: 'Adopters' },
                { value: 'fosters', label: 'Fosters' },
              ]}
            />
          </Group>
          <section
            aria-label="Drop a file here"
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            style={{
              border: `2px dashed var(--mantine-color-${dragging ? 'blue-5' : 'default-border'})`,
              borderRadius: 'var(--mantine-radius-md)',
              padding: 'var(--mantine-spacing-xl)',
              textAlign: 'center',
            }}
          >
            <Stack align="center" gap="xs">
              <IconFileSpreadsheet size={36} stroke={1.4} aria-hidden />
              <Text size="sm">
                {preview ? (
                  <>
                    <b>{preview.fileName}</b>: {describeFile(preview)}
                  </>
                ) : sending ? (
                  <>
                    <b>{sending}</b>: reading it…
                  </>
                ) : (
                  'Drop a CSV or Excel file here, or choose one.'
                )}
              </Text>
              <FileButton onChange={(file) => void choose(file)} accept=".csv,.tsv,.txt,.xlsx">
                {(props) => (
                  <BusyButton
                    {...props}
                    variant="light"
                    leftSection={<IconFileUpload aria-hidden size={18} />}
                    loading={reading.busy}
                  >
                    {preview ? 'Choose another file' : 'Choose a file'}
                  </BusyButton>
                )}
              </FileButton>
              {progress !== undefined && (
                <Progress value={progress * 100} w={240} aria-label="Sending the file to the desk" />
              )}
            </Stack>
          </section>
          {preview && preview.sheets.length > 1 && (
            <Select
              mt="md"
              maw={320}
              label="Sheet"
              data={preview.sheets}
              value={preview.sheet}
              onChange={(sheet) => sheet && void reread({ sheet })}
              allowDeselect={false}
            />
          )}
          {reading.error && (
            <DeskErrorAlert reveal error={reading.error} title="The file could not be read" />
          )}
        </Card>

        {preview && (
          <Card withBorder radius="lg" p="lg">
            <Title order={3} size="h4" mb={4}>
              2. Columns
            </Title>
            <Text size="sm" c="dimmed" mb="md">
              Each column of the file and where its values go. Change any that the desk matched wrongly;
              columns set to “Ignore” are left out.
            </Text>
            <MappingTable
              preview={preview}
              chosen={chosen}
              onChange={(header, target) => {
                setChosen((previous) => ({ ...previous, [header]: target }));
                setReport(undefined);
              }}
            />
            {mapsDates(preview, chosen) && (
              <Select
                mt="md"
                maw={360}
                label="Dates like 03/04/2025 are"
                data={DATE_ORDERS}
                value={dateOrder}
                onChange={(value) => {
                  setDateOrder(value ?? 'auto');
                  setReport(undefined);
                }}
                allowDeselect={false}
              />
            )}
            {kind !== 'pets' && (
              <Checkbox
                mt="md"
                label={SHARED_EMAILS_LABEL}
                description="Without it, the same email means the same person: a second row with it is rejected, and a row whose email is already on the desk is taken to be that person."
                checked={sharedEmails}
                onChange={(event) => {
                  setSharedEmails(event.currentTarget.checked);
                  setReport(undefined);
                }}
              />
            )}
            <Group mt="lg">
              <BusyButton
                leftSection={<IconListCheck aria-hidden size={18} />}
                onClick={() => void check()}
                loading={checking.busy}
              >
                Check the file
              </BusyButton>
            </Group>
            {checking.error && (
              <DeskErrorAlert reveal error={checking.error} title="The file could not be checked" />
            )}
          </Card>
        )}

        {preview && report && (
          <Card ref={reportCard} withBorder radius="lg" p="lg">
            <Title order={3} size="h4" mb="md">
              3. {finished ? 'Done' : 'Check and import'}
            </Title>
            <ReportView
              report={report}
              targets={preview.targets}
              updating={updateExisting}
              showPublic={showPublic}
              saveRejected={checkedRequest && <SaveRejectedRows request={checkedRequest} />}
            />
            {!finished && nothingToImport && (
              <Text size="sm" mt="md" role="status">
                {nothingLeftWords(report)}
              </Text>
            )}
            {!finished && !nothingToImport && (
              <Stack gap="xs" mt="md">
                {report.totals.rejected > 0 && (
                  <Checkbox
                    label={
                      report.totals.rejected === 1
                        ? 'Skip the rejected row and import the rest'
                        : `Skip the ${report.totals.rejected} rejected rows and import the rest`
                    }
                    checked={skipBad}
                    onChange={(event) => setSkipBad(event.currentTarget.checked)}
                  />
                )}
                {kind === 'pets' && report.totals.publicUnsaid > 0 && (
                  <Checkbox
                    label={
                      report.defaults.show_public !== undefined
                        ? 'Show the new pets on the public list and your website'
                        : `Show the ${report.totals.publicUnsaid === 1 ? 'new pet' : `${report.totals.publicUnsaid.toLocaleString()} new pets`} whose row leaves “${report.columns.find((column) => column.target === 'show_public')?.header ?? 'Shown publicly'}” blank on the public list and your website`
                    }
                    description="Only those in a public status, such as Available. Left unticked, they are saved and sent to the shelter as usual, but kept off the public list until you tick “Show on the public list” in a pet’s Edit. Pets already on the desk keep their setting."
                    checked={showPublic}
                    onChange={(event) => setShowPublic(event.currentTarget.checked)}
                  />
                )}
                {kind === 'pets' && report.totals.existing > 0 && (
                  <Checkbox
                    label={UPDATE_EXISTING_LABEL}
                    checked={updateExisting}
                    onChange={(event) => setUpdateExisting(event.currentTarget.checked)}
                  />
                )}
                <Group mt="sm">
                  <BusyButton
                    onClick={() => void runImport()}
                    loading={importing.busy}
                    disabled={blockedWithoutSkip || (wouldImport === 0 && wouldUpdate === 0)}
                  >
                    {importLabel(report.kind, wouldImport, wouldUpdate)}
                  </BusyButton>
                  {blockedWithoutSkip ? (
                    <Text size="sm" c="dimmed">
                      Fix the rejected rows in the file and choose it again, or skip them.
                    </Text>
                  ) : (
                    wouldImport === 0 &&
                    wouldUpdate === 0 && (
                      <Text size="sm" c="dimmed">
                        The file has no new {KIND_WORDS[report.kind][1]}: tick “{UPDATE_EXISTING_LABEL}” to
                        bring them up to date.
                      </Text>
                    )
                  )}
                </Group>
              </Stack>
            )}
            {finished && (
              <Group mt="md">
                <Button
                  ref={openImported}
                  component="a"
                  href={kind === 'pets' ? '#/pets' : '#/people'}
                  variant="light"
                >
                  {kind === 'pets' ? 'Open Pets' : 'Open People'}
                </Button>
                <Text size="sm" c="dimmed">
                  {standalone
                    ? 'They show on this desk now; the header says “All recorded” once they are in your shelter’s records.'
                    : 'They show on this desk now, marked “Not sent yet” until they reach the shelter’s server.'}
                </Text>
              </Group>
            )}
            {importing.error && (
              <DeskErrorAlert reveal error={importing.error} title="Nothing was imported" />
            )}
          </Card>
        )}
      </Stack>
    </>
  );
}
