import { Route, Router, Switch } from 'wouter';
import { SettingsProvider, useSettings } from '../bridge/settings';
import { HomeRedirect } from '../dashboard/home-redirect';
import { ConnectionProvider } from '../lib/connection';
import { setTypedDateOrder } from '../lib/dates';
import { FirstRunRedirect } from '../shelter/first-run-redirect';
import { AppFrame } from './app-frame';
import { useGuardedHashLocation } from './guarded-location';
import { NotFoundScreen } from './not-found-screen';
import { HOME_PATH, lazyScreen, ScreenBoundary, SECTIONS } from './sections';

const WelcomeScreen = lazyScreen(async () => (await import('../shelter/welcome-screen')).WelcomeScreen);

/**
 * Hash routes (`#/pets`), so deep links work from app:// and from the browser host alike; leaving a screen asks first
 * while a form on it holds typing.
 */
export function App() {
  return (
    <SettingsProvider>
      <TypedDateOrder />
      <Router hook={useGuardedHashLocation}>
        <ConnectionProvider>
          <AppFrame>
            <Switch>
              <Route path="/">
                <HomeRedirect fallback={HOME_PATH} redirect={(home) => <FirstRunRedirect home={home} />} />
              </Route>
              <Route path="/welcome">
                <ScreenBoundary>
                  <WelcomeScreen />
                </ScreenBoundary>
              </Route>
              {SECTIONS.map(({ path, screen: Screen }) => (
                <Route key={path} path={path}>
                  <ScreenBoundary>
                    <Screen />
                  </ScreenBoundary>
                </Route>
              ))}
              <Route component={NotFoundScreen} />
            </Switch>
          </AppFrame>
        </ConnectionProvider>
      </Router>
    </SettingsProvider>
  );
}

/** Reads typed dates in the order chosen in Settings; rendered before the screens, so they read it in the same pass. */
function TypedDateOrder() {
  setTypedDateOrder(useSettings().settings?.dateOrder ?? 'auto');
  return null;
}
