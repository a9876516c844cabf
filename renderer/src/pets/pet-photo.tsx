import { Center, Skeleton, ThemeIcon } from '@mantine/core';
import { IconPaw } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useDesk } from '../bridge/hooks';

/**
 * Photo requests go two at a time: a list of slow or unreachable photo hosts must never hold up the desk's own calls
 * (the browser gives one host only a few connections).
 */
const MAX_LOADING = 2;
let loading = 0;
const queue: Array<() => void> = [];
function whenFree(): Promise<() => void> {
  return new Promise((resolve) => {
    const start = () => {
      loading++;
      resolve(() => {
        loading--;
        queue.shift()?.();
      });
    };
    if (loading < MAX_LOADING) start();
    else queue.push(start);
  });
}

/** Photos already turned into data URLs in this window (the desk keeps the files; this saves the round trips). */
const shown = new Map<string, string | null>();
const SHOWN_LIMIT = 400;

/** Shows a photo the window already has (one just taken) without asking the desk for it again. */
export function rememberPhoto(url: string, dataUrl: string): void {
  remember(url, dataUrl);
}

function remember(url: string, dataUrl: string | null): void {
  if (shown.size >= SHOWN_LIMIT) {
    const oldest = shown.keys().next().value;
    if (oldest !== undefined) shown.delete(oldest);
  }
  shown.set(url, dataUrl);
}

/**
 * The pet's photo through the desk's photo cache (kept from an earlier look, so it shows offline), or a paw when
 * there is none or its address gives no image.
 */
export function PetPhoto({
  url,
  name,
  size,
}: {
  url: string | null | undefined;
  name: string;
  size: number;
}) {
  const api = useDesk();
  const [dataUrl, setDataUrl] = useState<string | null | undefined>(() => (url ? shown.get(url) : null));
  useEffect(() => {
    if (!url) return setDataUrl(null);
    const known = shown.get(url);
    if (known !== undefined) return setDataUrl(known);
    setDataUrl(undefined);
    let current = true;
    void whenFree().then((done) => {
      // Scrolled past before its turn: not asked at all.
      if (!current) return done();
      api
        .call('photos.get', { url })
        .then(
          (photo) => {
            remember(url, photo.dataUrl);
            if (current) setDataUrl(photo.dataUrl);
          },
          () => {
            // Not remembered as missing for good: the address may work again when the desk is back online.
            if (current) setDataUrl(null);
          },
        )
        .finally(done);
    });
    return () => {
      current = false;
    };
  }, [api, url]);

  if (dataUrl === undefined)
    return <Skeleton w={size} h={size} radius="md" aria-label={`Photo of ${name}`} />;
  if (dataUrl === null) {
    return (
      <Center
        w={size}
        h={size}
        style={{ borderRadius: 'var(--mantine-radius-md)', background: 'var(--mantine-color-default-hover)' }}
        aria-label={`No photo of ${name}`}
        role="img"
      >
        <ThemeIcon variant="transparent" size={size / 2} c="dimmed">
          <IconPaw aria-hidden size={size / 2.4} stroke={1.4} />
        </ThemeIcon>
      </Center>
    );
  }
  return (
    <img
      src={dataUrl}
      alt={name}
      width={size}
      height={size}
      style={{ objectFit: 'cover', borderRadius: 'var(--mantine-radius-md)', display: 'block' }}
    />
  );
}
