import '@mantine/core/styles.css';
import '@mantine/spotlight/styles.css';
import '@mantine/dates/styles.css';
import './app/app.css';
import { MantineProvider } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { cssVariablesResolver, theme } from './app/theme';
import { callEarly } from './bridge/early-calls';
import { FIRST_PET_FILTERS, petListQuery } from './pets/pet-list-query';
import { LIST_PAGE_SIZE } from './pets/use-list-pages';

// A new tab on the Pets list asks for its first rows now, while React and the screen start (see early-calls).
if (window.location.hash === '#/pets') {
  callEarly('mirror.pets.list', { ...petListQuery(FIRST_PET_FILTERS), limit: LIST_PAGE_SIZE, offset: 0 });
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <App />
    </MantineProvider>
  </StrictMode>,
);
