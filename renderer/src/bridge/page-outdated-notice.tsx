import { Alert, Button, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { usePageOutdated } from './page-outdated';

/** Above every screen once the desk refused this page's secret: why nothing works, and the one way out. */
export function PageOutdatedNotice() {
  const outdated = usePageOutdated();
  if (!outdated) return null;
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconRefresh aria-hidden />}
      title="Reload this page to carry on"
      mb="lg"
    >
      <Text size="sm" mb="sm">
        Shelter Desk was started again after this page was opened, so the desk no longer takes its requests.
        What was saved is on the desk; the page shows it again once reloaded.
      </Text>
      <Button leftSection={<IconRefresh aria-hidden size={16} />} onClick={() => window.location.reload()}>
        Reload the page
      </Button>
    </Alert>
  );
}
