import { Alert, Anchor, Button, Group, List, Text } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef } from 'react';
import type { DuplicateWarning } from '../../../shared/desk-api';
import { BusyButton } from './busy-button';

/** The form field (its `data-field`) holding what a warning found shared: Go back returns the focus there. */
const FIELD_OF_KIND: Readonly<Record<DuplicateWarning['kind'], string>> = {
  microchip: 'microchip_id',
  'shelter-id': 'custom_id',
  email: 'email',
  'name-phone': 'phone',
};

/**
 * The desk found records that look like this one; the worker may still save ("Save anyway"). It comes into view
 * with the focus when it appears, and again when another Save finds other records: below a long form (a pet's edit)
 * it would be out of sight, and Save would seem to do nothing. Go back returns the focus to the field holding what
 * was found shared.
 */
export function DuplicateWarnings({
  warnings,
  onOverride,
  onCancel,
  onOpen,
  saving,
  children,
}: {
  warnings: readonly DuplicateWarning[];
  onOverride(): void;
  onCancel(): void;
  /** Shows the existing record (its id in the mirror). */
  onOpen?(existingId: string): void;
  saving?: boolean;
  /** More to say about saving anyway, after the list. */
  children?: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const found = warnings.map((warning) => `${warning.kind}:${warning.existingId}`).join(' ');
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new finding (not each render) takes the focus.
  useEffect(() => {
    const alert = ref.current;
    alert?.focus({ preventScroll: true });
    alert?.scrollIntoView?.({ block: 'center' });
  }, [found]);
  const goBack = () => {
    const kind = warnings[0]?.kind;
    const field =
      kind &&
      ref.current?.closest('form')?.querySelector<HTMLElement>(`[data-field="${FIELD_OF_KIND[kind]}"]`);
    onCancel();
    field?.focus();
  };
  return (
    <Alert
      ref={ref}
      tabIndex={-1}
      color="yellow"
      variant="light"
      icon={<IconCopy aria-hidden />}
      title="This may already be on the desk"
      role="alert"
    >
      <List size="sm" spacing={4} mb="sm">
        {warnings.map((warning) => (
          <List.Item key={`${warning.kind}:${warning.existingId}`}>
            {warning.message}{' '}
            {onOpen && (
              <Anchor
                component="button"
                type="button"
                size="sm"
                c="inherit"
                fw={600}
                underline="always"
                onClick={() => onOpen(warning.existingId)}
              >
                Open {warning.existingName}
              </Anchor>
            )}
          </List.Item>
        ))}
      </List>
      <Text size="sm" mb="sm">
        Check the existing record first. If this really is someone or something new, save it anyway.
      </Text>
      {children}
      <Group gap="sm">
        <BusyButton color="yellow" autoContrast onClick={onOverride} loading={saving}>
          Save anyway
        </BusyButton>
        <Button variant="default" onClick={goBack}>
          Go back
        </Button>
      </Group>
    </Alert>
  );
}
