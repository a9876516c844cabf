import { Center, ThemeIcon } from '@mantine/core';
import { IconPaw } from '@tabler/icons-react';
import { useState } from 'react';

/** The pet's photo, or a paw when there is none or it cannot load (offline, moved). */
export function PetPhoto({
  url,
  name,
  size,
}: {
  url: string | null | undefined;
  name: string;
  size: number;
}) {
  const [failed, setFailed] = useState(false);
  if (!url || failed) {
    return (
      <Center
        w={size}
        h={size}
        style={{ borderRadius: 'var(--mantine-radius-md)', background: 'var(--mantine-color-default-hover)' }}
        aria-label={`No photo of ${name}`}
        role="img"
      >
        <ThemeIcon variant="transparent" size={size / 2} c="dimmed">
          <IconPaw size={size / 2.4} stroke={1.4} />
        </ThemeIcon>
      </Center>
    );
  }
  return (
    <img
      src={url}
      alt={name}
      width={size}
      height={size}
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
      style={{ objectFit: 'cover', borderRadius: 'var(--mantine-radius-md)', display: 'block' }}
    />
  );
}
