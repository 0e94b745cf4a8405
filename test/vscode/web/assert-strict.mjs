// node:assert/strict in the web worker bundle of the suite: the npm `assert` package's strict
// mode, with the functions the suite calls as named exports (it imports the module as a namespace).
import assert from 'assert';

const strict = assert.strict;
export default strict;
export const { ok, equal, notEqual, deepEqual, notDeepEqual, match, doesNotMatch, fail, throws, rejects } = strict;
