// The overview, the UI's first page: the collections the key may see with their documents and chunks
// (query-api), each engine's health as both apps see it (their readiness checks), the pipeline's lag per
// stage, and the recent jobs and sources (ingest pipeline). Every value from an API becomes text.
import { $, api, h, ingestUrl, collection, useCollection } from './app.js';

function table(caption, columns, rows, empty) {
  if (!rows.length) return h('p', { class: 'hint' }, empty);
  return h('table', {}, h('caption', { class: 'sr-only' }, caption),
    h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, rows));
}

let loads = 0;

/**
 * A section's body, or what went wrong reading it: one unreachable API leaves the others shown. A load
 * that a later one overtook (a key typed meanwhile, a second click) writes nothing.
 */
async function fill(load, selector, build) {
  let body;
  try {
    body = await build();
  } catch (e) {
    body = h('p', { class: 'hint unavailable' }, `unavailable: ${e.message}`);
  }
  if (load === loads) $(selector).replaceChildren(body);
}

async function collections() {
  const { collections: found } = await api('api/collections');
  const current = collection();
  return table('Collections with their documents, chunks and entities', ['collection', 'documents', 'chunks', 'entities'],
    found.map((c) => h('tr', { 'data-collection': c.name, 'aria-current': c.name === current ? 'true' : null },
      h('td', {}, h('button', { type: 'button', class: 'link', title: 'Use this collection',
        onclick: () => useCollection(c.name) }, c.name)),
      h('td', {}, c.documents), h('td', {}, c.chunks), h('td', {}, c.entities))),
    'No collection yet: ingest documents to make one.');
}

/** A readiness answer, 503 included (its body still lists the checks); null when the app does not answer. */
async function readiness(url) {
  try {
    const response = await fetch(url);
    return await response.json();
  } catch (e) {
    return null;
  }
}

/** The engine a readiness check probes: its data names it; the Kafka connector's check (SmallRye's) names none. */
function engineOf(check) {
  return (check.data && check.data.engine) || (/messaging/i.test(check.name) ? 'kafka' : check.name);
}

async function engines() {
  const apps = [['query-api', 'q/health/ready'], ['ingest-pipeline', `${ingestUrl}/q/health/ready`]];
  const answers = await Promise.all(apps.map(([, url]) => readiness(url)));
  const rows = [];
  apps.forEach(([app], i) => {
    const answer = answers[i];
    if (!answer) {
      rows.push(h('tr', { 'data-state': 'DOWN' }, h('td', {}, app), h('td', {}, app), h('td', {}, 'DOWN'), h('td', {}, 'does not answer')));
      return;
    }
    for (const check of answer.checks || []) {
      const data = check.data || {};
      const facts = Object.entries(data).filter(([key]) => key !== 'engine');
      const detail = check.status === 'UP'
        ? (facts.length > 3 ? `all ${facts.length} ready` : facts.map(([key, value]) => `${key} ${value}`).join(', '))
        : [data.reason, data.since ? `since ${data.since}` : null].filter(Boolean).join(' ')
          || Object.entries(data).map(([key, value]) => `${key}: ${value}`).join('; ');
      rows.push(h('tr', { 'data-state': check.status, 'data-engine': engineOf(check) },
        h('td', {}, engineOf(check)), h('td', {}, app), h('td', {}, check.status), h('td', {}, detail)));
    }
  });
  return table('Readiness of each engine as each app sees it', ['engine', 'seen by', 'state', 'detail'], rows, 'No checks.');
}

async function lag() {
  const { stages } = await api(`${ingestUrl}/api/stages/lag`);
  const entries = Object.entries(stages);
  if (!entries.length) return h('p', { class: 'hint' }, 'not read yet (the pipeline reads it every 5 s)');
  return h('ul', { class: 'lag-list' }, entries.map(([stage, records]) =>
    h('li', { 'data-stage': stage, 'data-busy': records > 0 ? 'true' : 'false' }, `${stage} ${records}`)));
}

async function jobs() {
  const { jobs: recent } = await api(`${ingestUrl}/api/jobs?limit=10`);
  return table('Recent jobs, newest first', ['job', 'collections', 'state', 'documents'],
    recent.map((job) => h('tr', { 'data-job': job.jobId, 'data-state': job.state },
      h('td', {}, job.jobId), h('td', {}, job.collections.join(', ')), h('td', {}, job.state.replaceAll('_', ' ')),
      h('td', {}, `${job.documents.done} of ${job.documents.total} done, ${job.documents.failed} failed`))),
    'No jobs since the pipeline started.');
}

async function sources() {
  const found = await api(`${ingestUrl}/api/sources`);
  return table('Sources kept in sync', ['source', 'collection', 'documents', 'last run'],
    found.map((s) => h('tr', { 'data-source': s.id },
      h('td', {}, `${s.type} `, h('code', {}, s.location)), h('td', {}, s.collection), h('td', {}, s.documents),
      h('td', {}, s.lastRun ? `${s.lastRun.state}${s.lastRun.finishedAt ? ` at ${new Date(s.lastRun.finishedAt).toLocaleString()}` : ''}`
        + (s.lastRun.error ? `: ${s.lastRun.error}` : '') : 'never'))),
    'No folder or repository is kept in sync.');
}

/** Reads every part at once; each shows its own data or why it is unavailable. data-loaded marks the latest load's end. */
export async function loadOverview() {
  const load = ++loads;
  delete $('#overview').dataset.loaded;
  await Promise.all([fill(load, '#overview-collections', collections), fill(load, '#overview-engines', engines),
    fill(load, '#overview-lag', lag), fill(load, '#overview-jobs', jobs), fill(load, '#overview-sources', sources)]);
  if (load === loads) $('#overview').dataset.loaded = 'true';
}

document.querySelector('#overview-refresh').addEventListener('click', () => loadOverview());
