import {
  ActionIcon,
  AppShell,
  Badge,
  Box,
  Burger,
  Button,
  Divider,
  Group,
  Kbd,
  NavLink,
  Stack,
  Text,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure, useWindowEvent } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { useDeskQuery } from '../bridge/hooks';
import { useNetworkChangeHint } from '../bridge/network-hint';
import { PageOutdatedNotice } from '../bridge/page-outdated-notice';
import { useSettings } from '../bridge/settings';
import { useSavedCardsForgottenOnRestore } from '../components/saved-record-card';
import { focusIsLost, focusWasPlaced } from '../lib/use-focus-back';
import { DemoBadge } from '../shelter/demo-badge';
import { TlsMovedNotice } from '../sync/tls-moved-notice';
import { DeskSpotlight, openSpotlight } from './desk-spotlight';
import { DesktopShellEvents } from './desktop-shell';
import { KeyboardShortcuts, useModifierKey } from './keyboard';
import { NavScroll } from './nav-scroll';
import { SECTIONS, type Section } from './sections';
import { ShelterDeskMark } from './shelter-desk-mark';
import { StatusBadge } from './status-badge';

/** Header (name, shelter, status), navigation to every section, and the screen. */
export function AppFrame({ children }: { children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure();
  const { settings } = useSettings();
  const info = useDeskQuery('app.info');
  useNetworkChangeHint();
  useSavedCardsForgottenOnRestore();
  const mod = useModifierKey();
  const focusChosenScreen = useFocusChosenScreen();
  const choose = (path: string) => {
    close();
    focusChosenScreen(path);
  };
  const burger = useRef<HTMLButtonElement>(null);
  // The sections opened over a small window close on Escape, from the list or its button, and the focus goes back
  // to the button (a dialog or search over them handles its own Escape first).
  useWindowEvent('keydown', (event) => {
    if (!opened || event.key !== 'Escape' || event.defaultPrevented) return;
    const active = document.activeElement;
    if (active !== burger.current && !active?.closest('.mantine-AppShell-navbar')) return;
    close();
    burger.current?.focus();
  });

  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{ width: 250, breakpoint: 'md', collapsed: { mobile: !opened } }}
      padding="lg"
    >
      {/* A button, not a #fragment link: the hash holds the route, so this moves the focus without navigating. */}
      <UnstyledButton className="skip-link" onClick={() => document.getElementById('main-content')?.focus()}>
        Skip to main content
      </UnstyledButton>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              ref={burger}
              opened={opened}
              onClick={toggle}
              hiddenFrom="md"
              size="sm"
              aria-label="Toggle navigation"
              aria-expanded={opened}
              aria-controls="sections"
            />
            <ShelterDeskMark size={34} />
            <Stack gap={0} className="narrow-hidden">
              <Title order={1} size="h4" lh={1.2}>
                Shelter Desk
              </Title>
              {settings?.shelterName ? (
                <Text size="xs" c="dimmed" lh={1.2}>
                  {settings.shelterName}
                </Text>
              ) : null}
            </Stack>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <DemoBadge />
            <Button
              variant="default"
              leftSection={<IconSearch aria-hidden size={16} />}
              rightSection={<Kbd size="xs">{`${mod} K`}</Kbd>}
              onClick={openSpotlight}
              visibleFrom="md"
              c="dimmed"
              fw={400}
            >
              Search
            </Button>
            {/* On a narrow window (or at 200 % zoom) the search stays one click away, as an icon. Named by its
                content like the wide button, not by a label: the screens' own "Search" fields keep theirs alone. */}
            <ActionIcon variant="default" size="lg" onClick={openSpotlight} hiddenFrom="md">
              <IconSearch size={18} aria-hidden />
              <VisuallyHidden>Search</VisuallyHidden>
            </ActionIcon>
            <StatusBadge />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar id="sections" p="sm" aria-label="Sections">
        <AppShell.Section grow style={{ minHeight: 0 }}>
          <NavScroll>
            <Stack gap={4}>
              {SECTIONS.filter((s) => !s.secondary).map((section) => (
                <SectionLink key={section.path} section={section} onNavigate={choose} />
              ))}
            </Stack>
            <Divider my="sm" />
            <Stack gap={4}>
              {SECTIONS.filter((s) => s.secondary).map((section) => (
                <SectionLink key={section.path} section={section} onNavigate={choose} />
              ))}
            </Stack>
          </NavScroll>
        </AppShell.Section>
        <AppShell.Section>
          <Box px="sm" pt="sm">
            {info.data && (
              <Group gap="xs">
                <Text size="xs" c="dimmed">
                  Version {info.data.version}
                </Text>
                <Badge size="xs" variant="outline" color="gray">
                  {info.data.mode === 'desktop' ? 'Desktop' : 'Browser mode'}
                </Badge>
              </Group>
            )}
          </Box>
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main id="main-content" tabIndex={-1}>
        <Box maw={1100} mx="auto">
          <DesktopShellEvents />
          <PageOutdatedNotice />
          <TlsMovedNotice />
          {children}
        </Box>
      </AppShell.Main>
      <DeskSpotlight />
      <KeyboardShortcuts />
    </AppShell>
  );
}

const focusMain = () => document.getElementById('main-content')?.focus({ preventScroll: true });

/**
 * A section chosen in the sidebar takes the focus once it is open (as the skip link gives it): the next Tab goes
 * into that screen, not on through the rest of the sections. Nothing moves when leaving was refused (a form held
 * typing and the person kept editing). A screen reached another way (a link in a screen's text) takes it too when
 * the focus went with the link, unless the new screen gave it to something of its own.
 */
function useFocusChosenScreen(): (path: string) => void {
  const [location] = useLocation();
  const chosen = useRef<string>(undefined);
  const shown = useRef(location);
  useEffect(() => {
    const moved = shown.current !== location;
    shown.current = location;
    const chosenHere = chosen.current === location;
    if (chosenHere) chosen.current = undefined;
    // The page's first screen (the address settling as it loads) takes no focus: a ring round the whole screen
    // before anyone touched it showed nothing useful.
    if (chosenHere || (moved && focusIsLost() && focusWasPlaced())) focusMain();
  }, [location]);
  return (path) => {
    if (path === location) focusMain();
    else chosen.current = path;
  };
}

function SectionLink({ section, onNavigate }: { section: Section; onNavigate: (path: string) => void }) {
  const [location] = useLocation();
  const Icon = section.icon;
  const active = location === section.path || location.startsWith(`${section.path}/`);
  return (
    <NavLink
      component="a"
      href={`#${section.path}`}
      label={section.label}
      description={section.hint}
      classNames={{ description: 'nav-hint' }}
      title={section.hint}
      aria-label={section.label}
      aria-current={active ? 'page' : undefined}
      active={active}
      leftSection={<Icon aria-hidden size={20} stroke={1.6} />}
      onClick={() => onNavigate(section.path)}
      variant="light"
      styles={{ root: { borderRadius: 'var(--mantine-radius-md)' } }}
    />
  );
}
