// Editor settings for IQE diagnostics: pulled per document with workspace/configuration (section
// `iqmTools`), cached per URI until the client says the configuration changed.
import type { Connection } from 'vscode-languageserver';
import type { Severity, ValidateOptions } from '../core/iqe/diagnostic';

export interface Settings {
  maxProblems: number;
  ignore: string[];
  severity: Record<string, Severity>;
  debounceMs: number;
  /** Engine profiles whose findings are added (`iqmTools.engine`, comma-separated ids). */
  engines: string[];
}

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  maxProblems: 1000,
  ignore: [],
  severity: {},
  debounceMs: 50,
  engines: [],
});

const SEVERITIES: ReadonlySet<string> = new Set(['error', 'warning', 'information', 'hint']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function integerAtLeast(value: unknown, min: number, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(min, Math.floor(value)) : fallback;
}

/** Reads the `iqmTools` section (nested objects, or flat `diagnostics.x` keys) leniently: a bad value falls back to its default. */
export function normalizeSettings(section: unknown): Settings {
  const root = isObject(section) ? section : {};
  const nested = isObject(root.diagnostics) ? root.diagnostics : {};
  const pick = (key: string): unknown => (key in nested ? nested[key] : root[`diagnostics.${key}`]);
  const ignoreRaw = pick('ignore');
  const severityRaw = pick('severity');
  const severity: Record<string, Severity> = {};
  if (isObject(severityRaw)) {
    for (const [code, value] of Object.entries(severityRaw)) {
      if (typeof value === 'string' && SEVERITIES.has(value)) severity[code] = value as Severity;
    }
  }
  return {
    maxProblems: integerAtLeast(pick('maxProblems'), 1, DEFAULT_SETTINGS.maxProblems),
    ignore: Array.isArray(ignoreRaw) ? ignoreRaw.filter((c): c is string => typeof c === 'string') : [],
    severity,
    debounceMs: integerAtLeast(pick('debounceMs'), 0, DEFAULT_SETTINGS.debounceMs),
    engines: engineList(root.engine),
  };
}

/** `iqmTools.engine`: "ioquake3", "darkplaces, fte" or a list of names. */
function engineList(value: unknown): string[] {
  const items = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  return items.flatMap((v) => v.split(',')).map((v) => v.trim().toLowerCase()).filter((v) => v.length > 0);
}

export function validateOptions(settings: Settings): ValidateOptions {
  return { maxProblems: settings.maxProblems, ignore: settings.ignore, severity: settings.severity };
}

/** A string that is equal for two settings exactly when they give the same diagnostics. */
export function optionsKey(settings: Settings): string {
  const severity = Object.keys(settings.severity)
    .sort()
    .map((code) => [code, settings.severity[code]]);
  return JSON.stringify([settings.maxProblems, [...settings.ignore].sort(), severity, settings.engines]);
}

export class SettingsStore {
  private readonly cache = new Map<string, Promise<Settings>>();
  /** Whether the client answers workspace/configuration; otherwise the pushed settings apply. */
  private pull = false;
  private pushed: Settings = { ...DEFAULT_SETTINGS };

  constructor(private readonly connection: Connection) {}

  setPullSupported(pull: boolean): void {
    this.pull = pull;
  }

  /** workspace/didChangeConfiguration: forget what was pulled; remember what was pushed (for clients that cannot be asked). */
  changed(pushedSettings: unknown): void {
    this.cache.clear();
    if (isObject(pushedSettings) && 'iqmTools' in pushedSettings) this.pushed = normalizeSettings(pushedSettings.iqmTools);
  }

  forget(uri: string): void {
    this.cache.delete(uri);
  }

  get(uri: string): Promise<Settings> {
    if (!this.pull) return Promise.resolve(this.pushed);
    let settings = this.cache.get(uri);
    if (!settings) {
      settings = this.connection.workspace.getConfiguration({ scopeUri: uri, section: 'iqmTools' }).then(
        (section: unknown) => normalizeSettings(section),
        (error: unknown) => {
          this.connection.console.warn(`workspace/configuration failed, using default settings: ${String(error)}`);
          return { ...DEFAULT_SETTINGS };
        },
      );
      this.cache.set(uri, settings);
    }
    return settings;
  }
}
