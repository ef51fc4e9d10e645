// Asks the person before an app's files are saved (draft SEP-1865 `ui/download-file`; "Save this
// file?", asked through useConfirmation): each file's name, type and size as the app gives them.
// Gatehouse writes them into Downloads under a cleaned name, never over an existing file.

import type { McpUiDownloadFileRequest } from "@modelcontextprotocol/ext-apps/app-bridge";
import { useId } from "react";
import { capText, MAX_NAME_CHARS } from "../../model/capText";
import { Dialog } from "../Dialog";

export type DownloadContents = McpUiDownloadFileRequest["params"]["contents"];

type FileSummary = { name: string; detail: string };

/** What the person is told about each offered file. */
export function summarizeDownload(contents: DownloadContents): FileSummary[] {
  return contents.map((item) => {
    if (item.type === "resource_link") {
      const size = item.size === undefined ? "" : ` · ${item.size} bytes`;
      return { name: item.name || lastSegment(item.uri), detail: `${item.mimeType ?? "a linked file"}${size}` };
    }
    const resource = item.resource;
    const bytes = "text" in resource ? new TextEncoder().encode(resource.text).length : Math.floor((resource.blob.length * 3) / 4);
    return { name: lastSegment(resource.uri), detail: `${resource.mimeType ?? "a file"} · about ${bytes} bytes` };
  });
}

function lastSegment(uri: string): string {
  const trimmed = uri.replace(/[?#].*$/, "").replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1) || uri;
}

type AppDownloadDialogProps = { contents: DownloadContents; onAnswer: (save: boolean) => void };

export function AppDownloadDialog({ contents, onAnswer }: AppDownloadDialogProps) {
  const messageId = useId();
  const files = summarizeDownload(contents);
  return (
    <Dialog title="Save this file?" onClose={() => onAnswer(false)} role="alertdialog" describedBy={messageId} testId="app-download-dialog">
      <p id={messageId} className="dialog-message">
        The app offers {files.length === 1 ? "a file" : `${files.length} files`} to save in your Downloads folder:
      </p>
      <ul className="app-download-files" data-testid="app-download-files">
        {files.map((file, index) => (
          <li key={index}>
            <code>{capText(file.name, MAX_NAME_CHARS)}</code> <span className="muted">{file.detail}</span>
          </li>
        ))}
      </ul>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={() => onAnswer(false)} data-autofocus>
          Cancel
        </button>
        <button type="button" className="button button-primary" onClick={() => onAnswer(true)} data-testid="app-download-save">
          Save
        </button>
      </div>
    </Dialog>
  );
}
