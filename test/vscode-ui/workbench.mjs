// The command palette and Quick Open for the UI tests, opened by a click on the title bar's
// command center instead of the harness's F1 (Session.runCommand, Session.quickOpen): a click
// works wherever the focus is, and a key does not reach the workbench from a webview that has not
// loaded yet. Neither survives a preview that is still loading, though: when its page loads, the
// webview takes the focus and the quick input closes (seen in the full UI run: "Compare with…"
// right after Quick Open of a model never showed). So a step waits for a preview it opened to be
// ready (its #viewer[data-state="ready"]) before it runs a command.

const COMMAND_CENTER = '.titlebar .command-center .command-center-quick-pick';
const INPUT = '.quick-input-widget input';

/** Opens the quick input in file mode (the command center's search) with its input focused and empty. */
async function openQuickInput(page, timeoutMs) {
  await page.locator(COMMAND_CENTER).first().click({ timeout: timeoutMs });
  const input = page.locator(INPUT);
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  // A quick input left open (another picker) keeps its text: start from nothing.
  await input.fill('');
  return input;
}

/**
 * Runs a command by its palette title, e.g. 'View: Focus Problems'. Once more when its row did not
 * show: an editor that was still opening can take the focus and close the palette under the
 * typing (seen in CI right after a binary file opened: "View: Reopen Editor With..." never listed).
 */
export async function runCommand(page, title, timeoutMs = 30000) {
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  try {
    await openQuickInput(page, timeoutMs);
    await page.keyboard.type(`>${title}`);
    await row.click({ timeout: Math.min(timeoutMs, 15000) });
  } catch (error) {
    console.log(`[ui-test] command "${title}" did not show in the palette (${error instanceof Error ? error.message.split('\n')[0] : error}); once more`);
    await page.keyboard.press('Escape');
    await openQuickInput(page, timeoutMs);
    await page.keyboard.type(`>${title}`);
    await row.click({ timeout: timeoutMs });
  }
}

/** Opens a workspace file by (part of) its name and waits for its tab (a model opens in its preview). */
export async function quickOpen(page, name, timeoutMs = 30000) {
  await openQuickInput(page, timeoutMs);
  await page.keyboard.type(name);
  // The matching row, not Enter: Enter takes the top row, which can still be a recently used
  // entry while the list is being filtered.
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().click({ timeout: timeoutMs });
  const base = name.slice(name.lastIndexOf('/') + 1);
  await page.locator('.tab.active', { hasText: base }).first().waitFor({ timeout: timeoutMs });
}
