import { Route, Router, Switch } from 'wouter';
import { SettingsProvider } from '../bridge/settings';
import { HomeRedirect } from '../dashboard/home-redirect';
import { ConnectionProvider } from '../lib/connection';
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
