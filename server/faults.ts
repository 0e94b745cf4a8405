// For tests only: text that makes the server fail on purpose, so that the internal-error paths can
// be exercised on the real server. The Node entry fills it from IQM_TOOLS_LSP_FAULT (validating a
// document that contains it throws) and IQM_TOOLS_LSP_EDIT_FAULT (an edit whose text contains it
// throws, as a broken parse cache would); the browser entry leaves both unset.
export const faults: { validate?: string; edit?: string } = {};
