// Files over VS Code's 50 MB sync limit get no didOpen, so the server would never see them. This
// watches the open tabs: an .iqe tab whose document VS Code does not sync is announced to the
// server (iqmTools/validateLargeFile), which reads it (from disk, or in the browser through the
// client: iqmTools/readFile); closing the tab retracts it.
import * as vscode from 'vscode';
import { State, type BaseLanguageClient } from 'vscode-languageclient';
import { CloseLargeFileNotification, ValidateLargeFileNotification } from '../core/lspMethods';
/** Tab and document events come in flurries (a tab closing also closes its document); settle first. */
const SETTLE_MS = 100;

function isIqe(uri: vscode.Uri): boolean {
  return uri.path.toLowerCase().endsWith('.iqe');
}

export class LargeFileTracker implements vscode.Disposable {
  /** URIs announced to the server, by string. */
  private readonly announced = new Set<string>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly client: BaseLanguageClient) {
    const schedule = () => this.schedule();
    this.subscriptions.push(
      vscode.window.tabGroups.onDidChangeTabs(schedule),
      vscode.workspace.onDidOpenTextDocument(schedule),
      vscode.workspace.onDidCloseTextDocument(schedule),
      // A restarted server knows nothing: announce everything again.
      client.onDidChangeState(({ newState }) => {
        if (newState === State.Running) {
          this.announced.clear();
          this.schedule();
        }
      }),
    );
    this.schedule();
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    for (const subscription of this.subscriptions) subscription.dispose();
    this.announced.clear();
  }

  private schedule(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.reconcile();
    }, SETTLE_MS);
  }

  private reconcile(): void {
    if (!this.client.isRunning()) return;
    const synced = new Set(vscode.workspace.textDocuments.map((document) => document.uri.toString()));
    const wanted = new Set<string>();
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        if (tab.input instanceof vscode.TabInputText && isIqe(tab.input.uri)) {
          const uri = tab.input.uri.toString();
          if (!synced.has(uri)) wanted.add(uri);
        }
      }
    }
    for (const uri of this.announced) {
      if (wanted.has(uri)) continue;
      this.announced.delete(uri);
      // A document that became synced is taken over by didOpen on the server; only a closed tab is retracted.
      if (!synced.has(uri)) void this.client.sendNotification(CloseLargeFileNotification, { uri });
    }
    for (const uri of wanted) {
      if (this.announced.has(uri)) continue;
      this.announced.add(uri);
      void this.client.sendNotification(ValidateLargeFileNotification, { uri });
    }
  }
}
