import { Alert, Button, Text } from '@mantine/core';

/**
 * Said where a part of the app whose code loads when first shown (a screen, the pet edit form) could not be loaded:
 * the desk was updated while this window stayed open, or stopped answering. A reload brings the current version.
 */
export function CodeLoadFailure({ title, m }: { title: string; m?: string }) {
  return (
    <Alert color="red" title={title} role="alert" m={m}>
      <Text size="sm" mb="sm">
        The desk may have been updated while this window was open. Reloading brings the current version;
        nothing you saved is lost.
      </Text>
      <Button size="xs" onClick={() => window.location.reload()}>
        Reload
      </Button>
    </Alert>
  );
}
