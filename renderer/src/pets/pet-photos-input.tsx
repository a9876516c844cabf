import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  FileButton,
  Group,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  IconArrowLeft,
  IconArrowRight,
  IconCamera,
  IconLink,
  IconPhotoPlus,
  IconTrash,
} from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { NOT_A_PHOTO_MESSAGE } from '../../../shared/desk-api/photos';
import { useDesk, useDeskQuery } from '../bridge/hooks';
import { CameraCapture } from './camera-capture';
import { PetPhoto, rememberPhoto } from './pet-photo';
import { readPhotoLink } from './photo-link';
import { takePhotoFile } from './take-photo';

const isImageFile = (file: Blob) => file.type === '' || file.type.startsWith('image/');

/**
 * A pet's photos in a form (Intake, Edit): take one with the camera, choose files, drop them here or paste them
 * anywhere in the form, reorder (the first is the main photo) and remove. Each photo is made safe to publish by the
 * desk core and kept on this desk until the pet is saved and sent; on a server that takes links only, a link can be
 * pasted instead.
 */
export function PetPhotosInput({
  name,
  urls,
  error,
  onChange,
}: {
  name: string;
  urls: string[];
  /** The desk's message about these photos from the last save (a photo no longer on this desk). */
  error?: string | undefined;
  onChange(next: string[]): void;
}) {
  const api = useDesk();
  const support = useDeskQuery('photos.support');
  const [busy, setBusy] = useState(0);
  const [problems, setProblems] = useState<string[]>([]);
  const [camera, setCamera] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [link, setLink] = useState('');
  const [linkError, setLinkError] = useState<string>();
  // A photo finishes after later renders: it is added to the list and form as they are then.
  const latest = useRef({ urls, onChange });
  latest.current = { urls, onChange };
  const section = useRef<HTMLDivElement>(null);
  const label = name.trim() || 'this pet';

  async function add(files: Blob[]) {
    setProblems([]);
    setBusy((count) => count + files.length);
    for (const file of files) {
      const fileName = file instanceof File && file.name ? file.name : 'The photo';
      if (!isImageFile(file)) {
        // Said before the file is read and sent (a video dropped by mistake may be hundreds of MB).
        setProblems((previous) => [...previous, `${fileName}: ${NOT_A_PHOTO_MESSAGE}`]);
        setBusy((count) => count - 1);
        continue;
      }
      try {
        const taken = await takePhotoFile(api, file);
        rememberPhoto(taken.ref, taken.dataUrl);
        latest.current.onChange([...latest.current.urls, taken.ref]);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        setProblems((previous) => [...previous, `${fileName}: ${message}`]);
      } finally {
        setBusy((count) => count - 1);
      }
    }
  }

  // Pasting photos works anywhere in the form; pasting text into a field is left alone.
  useEffect(() => {
    const form = section.current?.closest('form');
    if (!form) return;
    const onPaste = (event: ClipboardEvent) => {
      const files = [...(event.clipboardData?.files ?? [])].filter(isImageFile);
      if (files.length === 0) return;
      event.preventDefault();
      void add(files);
    };
    form.addEventListener('paste', onPaste);
    return () => form.removeEventListener('paste', onPaste);
  });

  // The Remove button takes itself away: the focus goes to the next photo's (or the last one's), else to "Choose
  // photos", rather than to the page.
  const [focusAfterRemove, setFocusAfterRemove] = useState<number>();
  useEffect(() => {
    if (focusAfterRemove === undefined) return;
    setFocusAfterRemove(undefined);
    const target =
      urls.length > 0
        ? section.current?.querySelector<HTMLElement>(
            `[aria-label="Remove photo ${Math.min(focusAfterRemove, urls.length - 1) + 1}"]`,
          )
        : section.current?.querySelector<HTMLElement>('[data-choose-photos]');
    target?.focus();
  }, [focusAfterRemove, urls]);
  const remove = (index: number) => {
    onChange(urls.filter((_, at) => at !== index));
    setFocusAfterRemove(index);
  };

  const move = (from: number, to: number) => {
    const next = [...urls];
    const [item] = next.splice(from, 1);
    if (item === undefined) return;
    next.splice(to, 0, item);
    onChange(next);
  };

  function addLink() {
    const read = readPhotoLink(link);
    if ('problem' in read) {
      setLinkError(read.problem);
      return;
    }
    setLinkError(undefined);
    onChange([...urls, read.url]);
    setLink('');
  }

  const linksOnly = support.data?.support === 'links-only';
  return (
    <Stack gap="sm" ref={section}>
      <Title order={4}>Photos</Title>
      <Paper
        withBorder
        radius="md"
        p="md"
        aria-label="Photos: drop photo files here"
        role="group"
        // The form's summary of messages focuses this when the save named a photo.
        data-field="image_urls"
        tabIndex={-1}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'pet-photos-error' : undefined}
        style={{
          borderStyle: 'dashed',
          borderColor: dragging
            ? 'var(--mantine-primary-color-filled)'
            : error
              ? 'var(--mantine-color-error)'
              : undefined,
          background: dragging ? 'var(--mantine-primary-color-light)' : undefined,
        }}
        onDragOver={(event) => {
          if (![...event.dataTransfer.types].includes('Files')) return;
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          // Every file dropped is tried: one that is not a photo is said to be so, as when it is chosen.
          const files = [...event.dataTransfer.files];
          if (files.length > 0) void add(files);
        }}
      >
        <Stack gap="md">
          {urls.length > 0 ? (
            <Group gap="md" align="flex-start">
              {urls.map((url, index) => (
                <Stack key={url} gap={4} align="center" data-testid="form-photo">
                  <PetPhoto url={url} name={`${label}, photo ${index + 1}`} size={104} />
                  {index === 0 ? (
                    <Badge size="xs" variant="light">
                      Main photo
                    </Badge>
                  ) : (
                    <Text size="xs" c="dimmed">
                      Photo {index + 1}
                    </Text>
                  )}
                  <Group gap={2}>
                    <ActionIcon
                      variant="subtle"
                      size="sm"
                      aria-label={`Move photo ${index + 1} earlier`}
                      disabled={index === 0}
                      onClick={() => move(index, index - 1)}
                    >
                      <IconArrowLeft aria-hidden size={14} />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      size="sm"
                      aria-label={`Move photo ${index + 1} later`}
                      disabled={index === urls.length - 1}
                      onClick={() => move(index, index + 1)}
                    >
                      <IconArrowRight aria-hidden size={14} />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      size="sm"
                      aria-label={`Remove photo ${index + 1}`}
                      onClick={() => remove(index)}
                    >
                      <IconTrash aria-hidden size={14} />
                    </ActionIcon>
                  </Group>
                </Stack>
              ))}
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              No photos yet. Take one, choose files, drop them here or paste one. The first photo is the main
              photo on the kennel card and the listing.
            </Text>
          )}
          <Group gap="sm">
            <Button
              variant="light"
              leftSection={<IconCamera aria-hidden size={18} />}
              onClick={() => setCamera(true)}
            >
              Take photo
            </Button>
            <FileButton onChange={(files) => void add(files)} accept="image/*" multiple>
              {(props) => (
                <Button
                  {...props}
                  data-choose-photos
                  variant="default"
                  leftSection={<IconPhotoPlus aria-hidden size={18} />}
                >
                  Choose photos
                </Button>
              )}
            </FileButton>
            {busy > 0 && (
              <Text size="sm" role="status">
                Preparing {busy === 1 ? 'the photo' : `${busy} photos`}…
              </Text>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            Photos are turned upright, made at most 1600 pixels and stripped of hidden details such as where
            they were taken, before they are kept or sent.
          </Text>
        </Stack>
      </Paper>
      {error && (
        <Alert color="red" variant="light" title="A photo is missing" id="pet-photos-error">
          <Text size="sm">{error}</Text>
        </Alert>
      )}
      {problems.length > 0 && (
        <Alert color="red" variant="light" title="Not added">
          {problems.map((problem) => (
            <Text key={problem} size="sm">
              {problem}
            </Text>
          ))}
        </Alert>
      )}
      {linksOnly && (
        <Alert color="blue" variant="light" title="This server takes photo links only">
          Photos you add are kept on this desk for its screens and kennel cards, but the server will not have
          them. To show a photo on the listing, paste its link from the site that hosts it.
        </Alert>
      )}
      <Group gap="sm" align="flex-start">
        <TextInput
          label="Or paste a photo link"
          placeholder="https://…"
          value={link}
          error={linkError}
          onChange={(event) => {
            setLink(event.currentTarget.value);
            setLinkError(undefined);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              addLink();
            }
          }}
          style={{ flex: 1 }}
        />
        <Button variant="default" mt={25} leftSection={<IconLink aria-hidden size={16} />} onClick={addLink}>
          Add link
        </Button>
      </Group>
      <CameraCapture
        opened={camera}
        onClose={() => setCamera(false)}
        onTaken={(photo) => {
          setCamera(false);
          void add([photo]);
        }}
      />
    </Stack>
  );
}
