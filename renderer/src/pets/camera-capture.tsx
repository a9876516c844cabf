import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconCamera } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';

/** Why the camera did not start, in words staff can act on. */
function cameraProblem(error: unknown): string {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return 'The camera was not allowed. Allow the camera for Shelter Desk in the system or browser settings, then try again.';
  if (name === 'NotFoundError' || name === 'OverconstrainedError')
    return 'No camera was found. Connect one, or choose a photo file instead.';
  if (name === 'NotReadableError')
    return 'The camera is in use by another program. Close it there, then try again.';
  if (!navigator.mediaDevices?.getUserMedia)
    return 'This window cannot use a camera; choose a photo file instead.';
  return `The camera could not start (${error instanceof Error ? error.message : String(error)}).`;
}

/**
 * Takes a photo with the computer's camera: asks for the camera (video only) when opened, shows its picture, and
 * hands one still as a JPEG to `onTaken` (the desk core then makes it safe to publish). The camera stops when the
 * dialog closes.
 */
export function CameraCapture({
  opened,
  onClose,
  onTaken,
}: {
  opened: boolean;
  onClose(): void;
  onTaken(photo: Blob): void;
}) {
  const video = useRef<HTMLVideoElement>(null);
  const [stream, setStream] = useState<MediaStream>();
  const [problem, setProblem] = useState<string>();

  useEffect(() => {
    if (!opened) return;
    let current = true;
    let started: MediaStream | undefined;
    setProblem(undefined);
    navigator.mediaDevices
      .getUserMedia({ video: { width: { ideal: 1920 }, height: { ideal: 1080 } }, audio: false })
      .then(
        (media) => {
          started = media;
          if (!current) {
            for (const track of media.getTracks()) track.stop();
            return;
          }
          setStream(media);
        },
        (error: unknown) => {
          if (current) setProblem(cameraProblem(error));
        },
      );
    return () => {
      current = false;
      for (const track of started?.getTracks() ?? []) track.stop();
      setStream(undefined);
    };
  }, [opened]);

  useEffect(() => {
    if (video.current && stream) video.current.srcObject = stream;
  }, [stream]);

  function capture() {
    const element = video.current;
    if (!element || element.videoWidth === 0) return;
    const canvas = document.createElement('canvas');
    canvas.width = element.videoWidth;
    canvas.height = element.videoHeight;
    canvas.getContext('2d')?.drawImage(element, 0, 0);
    canvas.toBlob(
      (blob) => {
        if (blob) onTaken(blob);
      },
      'image/jpeg',
      0.92,
    );
  }

  return (
    <Modal opened={opened} onClose={onClose} title="Take a photo" size="lg" centered>
      <Stack gap="md">
        {problem ? (
          <Alert color="orange" variant="light" title="No camera">
            {problem}
          </Alert>
        ) : (
          <>
            <video
              ref={video}
              autoPlay
              playsInline
              muted
              aria-label="Camera picture"
              style={{ width: '100%', borderRadius: 'var(--mantine-radius-md)', background: '#000' }}
            />
            <Text size="sm" c="dimmed">
              {stream ? 'Frame the animal, then take the photo.' : 'Starting the camera…'}
            </Text>
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button leftSection={<IconCamera aria-hidden size={18} />} onClick={capture} disabled={!stream}>
            Take photo
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
