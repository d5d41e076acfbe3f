// What a real JUnit consumer reads from a file: xunit-viewer's own parser (the one behind its
// HTML viewer) turns junit.xml into suites and testcases with a status each. Prints, as JSON,
// per suite: the testcase count per status and the names of folded testcases. Judges nothing:
// the ctest harness compares this with results.jsonl.
// Usage: node junit_consumer.mjs junit.xml
import fs from 'node:fs'
import parse from 'xunit-viewer/src/cli/parse.js'

const file = process.argv[2]
const parsed = await parse(fs.readFileSync(file, 'utf8'))
const suites = {}
for (const suite of Object.values(parsed.suites)) {
  const counts = {}
  const folded = []
  for (const test of Object.values(suite.tests)) {
    counts[test.status] = (counts[test.status] || 0) + 1
    if (test.name.endsWith('(folded)')) folded.push({ name: test.name, status: test.status })
  }
  suites[suite.name] = { tests: Object.keys(suite.tests).length, counts, folded,
                         properties: suite.properties }
}
console.log(JSON.stringify({ suites }))
