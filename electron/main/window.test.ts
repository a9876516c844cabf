import { describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => ({ opened: [] as string[], answer: 0, asked: [] as string[] }));

vi.mock('electron', () => ({
  app: { isPackaged: true },
  BrowserWindow: class {},
  dialog: {
    showMessageBoxSync: (options: { message: string; buttons: string[] }) => {
      electron.asked.push(`${options.message} ${options.buttons.join(' / ')}`);
      return electron.answer;
    },
  },
  nativeTheme: { shouldUseDarkColors: false },
  shell: {
    openExternal: (url: string) => {
      electron.opened.push(url);
      return Promise.resolve();
    },
  },
}));

const { askBeforeUnloadingTyping, hardenWebContents } = await import('./window');

type Listener = (event: { preventDefault(): void }, url: string) => void;

function fakeContents() {
  const listeners = new Map<string, Listener>();
  let openHandler: ((details: { url: string }) => { action: string }) | undefined;
  const contents = {
    on(name: string, listener: Listener) {
      listeners.set(name, listener);
      return contents;
    },
    setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
      openHandler = handler;
    },
  };
  hardenWebContents(contents as never, 'app://shelter-desk');
  return {
    navigate(name: string, url: string): boolean {
      let prevented = false;
      listeners.get(name)?.({ preventDefault: () => (prevented = true) }, url);
      return prevented;
    },
    open: (url: string) => openHandler?.({ url }),
  };
}

describe('window hardening', () => {
  it('keeps navigation inside the app and sends web links to the system browser', () => {
    electron.opened.length = 0;
    const contents = fakeContents();
    expect(contents.navigate('will-navigate', 'app://shelter-desk/index.html#/pets')).toBe(false);
    expect(contents.navigate('will-navigate', 'https://example.org/adopt')).toBe(true);
    expect(contents.navigate('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(contents.navigate('will-redirect', 'https://example.org/')).toBe(true);
    expect(contents.navigate('will-attach-webview', 'app://shelter-desk/')).toBe(true);
    expect(electron.opened).toEqual(['https://example.org/adopt']);
  });

  it('denies every new window, opening only http(s) links outside', () => {
    electron.opened.length = 0;
    const contents = fakeContents();
    expect(contents.open('https://example.org/pet/1')).toEqual({ action: 'deny' });
    expect(contents.open('javascript:alert(1)')).toEqual({ action: 'deny' });
    expect(electron.opened).toEqual(['https://example.org/pet/1']);
  });
});

describe('a page holding typing', () => {
  it('closes or reloads only after "Leave without saving"', () => {
    let listener: ((event: { preventDefault(): void }) => void) | undefined;
    const contents = {
      on(name: string, added: typeof listener) {
        if (name === 'will-prevent-unload') listener = added;
      },
    };
    askBeforeUnloadingTyping(contents as never);
    const unloads = (answer: number) => {
      electron.answer = answer;
      let unloaded = false;
      listener?.({ preventDefault: () => (unloaded = true) });
      return unloaded;
    };
    electron.asked.length = 0;
    expect(unloads(1)).toBe(false);
    expect(unloads(0)).toBe(true);
    expect(electron.asked).toEqual([
      'Leave without saving? Leave without saving / Keep editing',
      'Leave without saving? Leave without saving / Keep editing',
    ]);
  });
});
