import { Badge, Tooltip } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { useDeskQuery } from '../bridge/hooks';

/** Marks every screen of the demo shelter, so nobody mistakes its made-up records for real ones. */
export function DemoBadge() {
  const overview = useDeskQuery('shelter.overview');
  const [location] = useLocation();
  const { reload } = overview;
  // The welcome screen and the demo removal change it; both end on another screen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `location` is the trigger, not an input.
  useEffect(() => reload(), [location, reload]);
  if (!overview.data?.demo) return null;
  // Connected, the demo is removed on the desk that runs it, not here.
  const here = overview.data.role === 'standalone';
  return (
    <Tooltip
      label={
        here
          ? 'Made-up pets and people. Remove them under Shelter.'
          : 'Made-up pets and people: this desk is connected to a demo shelter.'
      }
    >
      <Badge
        component="a"
        className="demo-badge"
        href={here ? '#/shelter' : '#/settings'}
        color="grape"
        variant="light"
        size="lg"
        leftSection={<IconSparkles aria-hidden size={14} />}
        aria-label="Demo shelter"
      >
        {/* A narrow window keeps the word "Demo" in sight: a sparkle alone told nobody the records are made up. */}
        Demo<span className="narrow-hidden"> shelter</span>
      </Badge>
    </Tooltip>
  );
}
