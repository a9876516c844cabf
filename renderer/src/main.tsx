import '@mantine/core/styles.css';
import '@mantine/spotlight/styles.css';
import '@mantine/dates/styles.css';
import './app/app.css';
// Before the app's own modules: see first-list-page.
import './pets/first-list-page';
import { MantineProvider } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { cssVariablesResolver, theme } from './app/theme';
import { earlyCallsSettled } from './bridge/early-calls';

/**
 * How long the first render waits for the early calls' answers: the desk usually answers while the modules load, and
 * a first frame with the list's rows saves the list a second render; a slow desk does not hold the screen up longer.
 */
const EARLY_ANSWER_WAIT_MS = 60;

await earlyCallsSettled(EARLY_ANSWER_WAIT_MS);
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <App />
    </MantineProvider>
  </StrictMode>,
);
