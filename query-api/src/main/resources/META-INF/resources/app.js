// OpenRAG web UI: plain ES module, no build step. Talks to query-api (same origin) and to the
// ingest pipeline (CORS) whose address /api/ui/config gives. The overview lives in overview.js.
import { loadOverview } from './overview.js';

import { filterChips, scopeOf } from './filters.js';

export const $ = (selector) => document.querySelector(selector);

/** Builds an element; text children are text nodes, so API data is never parsed as HTML. */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child !== undefined && child !== null) element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

export let ingestUrl = `${location.protocol}//${location.hostname}:8081`;
// with auth on (/api/ui/config says so) the UI asks for an API key once and keeps it for this tab
let apiKey = sessionStorage.getItem('openrag.apiKey');

function withKey(headers = {}) {
  return apiKey ? { ...headers, Authorization: `Bearer ${apiKey}` } : headers;
}

export function collection() {
  return $('#collection').value.trim() || 'default';
}

/** Picks a collection, as typing its name in the header would. */
export function useCollection(name) {
  $('#collection').value = name;
  route();
}

function showMessage(text, kind = 'error') {
  const box = $('#message');
  box.textContent = text;
  box.className = kind === 'info' ? 'info' : '';
  box.hidden = false;
  clearTimeout(showMessage.timer);
  showMessage.timer = setTimeout(() => { box.hidden = true; }, kind === 'info' ? 4000 : 12000);
}

/** fetch that turns the APIs' {error, message} answers (and network failures) into readable errors. */
export async function api(url, options = {}) {
  let response;
  try {
    response = await fetch(url, { ...options, headers: withKey(options.headers) });
  } catch (e) {
    throw new Error(`cannot reach ${new URL(url, location.href).origin}: is it running?`);
  }
  if (response.status === 401) askForKey();
  const type = response.headers.get('content-type') || '';
  const body = type.includes('json') ? await response.json() : await response.text();
  if (!response.ok) {
    const message = body && body.message ? body.message : `${response.status} ${response.statusText}`;
    throw new Error(message);
  }
  return body;
}

function json(body, method = 'POST') {
  return { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
}

/** Runs an action, showing its error as a message instead of failing silently. */
function guarded(action) {
  return async (event) => {
    if (event && event.preventDefault) event.preventDefault();
    try {
      await action(event);
    } catch (e) {
      showMessage(e.message);
    }
  };
}

// ---------------------------------------------------------------- navigation

const areas = ['overview', 'ingest', 'documents', 'graph', 'memory', 'chat'];

function route() {
  const area = areas.includes(location.hash.slice(1)) ? location.hash.slice(1) : 'overview';
  for (const name of areas) $(`#${name}`).hidden = name !== area;
  for (const link of document.querySelectorAll('nav a')) {
    if (link.dataset.area === area) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  if (area === 'ingest') {
    loadSettings().catch((e) => showMessage(`settings: ${e.message}`));
    refreshLag();
  }
  if (area === 'overview') loadOverview().catch((e) => showMessage(e.message));
  if (area === 'documents') loadDocuments().catch((e) => showMessage(e.message));
  if (area === 'memory') loadMemories().catch((e) => showMessage(e.message));
}

/**
 * The collection picker: the collections the key may see, each with its document count; refreshed
 * whenever the field gets the focus (a collection made by an upload shows up). Typing a new name
 * stays possible: an upload into it creates it. At start, an unknown name is replaced by the first.
 */
async function loadCollections(pickFirst) {
  const { collections } = await api('api/collections');
  $('#collections').replaceChildren(...collections.map((c) => h('option', { value: c.name },
    `${c.documents} ${c.documents === 1 ? 'document' : 'documents'}`)));
  if (pickFirst && collections.length && !collections.some((c) => c.name === collection())) $('#collection').value = collections[0].name;
}

// ---------------------------------------------------------------- ingest

function watchJob(jobId, label) {
  const card = h('div', { class: 'job', 'data-job': jobId, 'data-state': 'running' }, h('strong', {}, label), h('p', {}, 'starting…'));
  $('#jobs').querySelector('.hint')?.remove();
  $('#jobs').prepend(card);
  if (apiKey) {
    pollJob(card, label, jobId); // EventSource cannot send an Authorization header
    return;
  }
  const events = new EventSource(`${ingestUrl}/api/jobs/${encodeURIComponent(jobId)}/events`);
  events.onmessage = (event) => {
    const job = JSON.parse(event.data);
    renderJob(card, label, job);
    if (job.state !== 'running') events.close();
  };
  events.onerror = () => {
    if (card.dataset.state === 'running') {
      events.close();
      api(`${ingestUrl}/api/jobs/${encodeURIComponent(jobId)}`).then((job) => renderJob(card, label, job))
        .catch((e) => showMessage(`job ${jobId}: ${e.message}`));
    }
  };
}

/** The consumer lag of each stage (ingest pipeline: /api/stages/lag), shown above the jobs while the ingest area is open. */
async function refreshLag() {
  if ($('#ingest').hidden || document.hidden) return;
  try {
    const { stages } = await api(`${ingestUrl}/api/stages/lag`);
    const entries = Object.entries(stages);
    $('#lag').textContent = entries.length
      ? `Consumer lag per stage: ${entries.map(([stage, records]) => `${stage} ${records}`).join(' · ')}`
      : 'Consumer lag per stage: not read yet';
    $('#lag').dataset.busy = entries.some(([, records]) => records > 0) ? 'true' : 'false';
  } catch (e) {
    $('#lag').textContent = `Consumer lag per stage: unavailable (${e.message})`;
  }
}

function pollJob(card, label, jobId) {
  api(`${ingestUrl}/api/jobs/${encodeURIComponent(jobId)}`).then((job) => {
    renderJob(card, label, job);
    if (job.state === 'running') setTimeout(() => pollJob(card, label, jobId), 1000);
  }).catch((e) => showMessage(`job ${jobId}: ${e.message}`));
}

function renderJob(card, label, job) {
  card.dataset.state = job.state;
  const { total, done, failed } = job.documents;
  const stages = Object.entries(job.stages).filter(([, count]) => count.done || count.failed);
  card.replaceChildren(...[
    h('strong', {}, label), ' ', h('span', { class: 'badge' }, job.state.replaceAll('_', ' ')),
    h('progress', { max: Math.max(total, 1), value: done + failed, 'aria-label': `${label}: ${done + failed} of ${total} documents` }),
    h('p', {}, `${done} of ${total} documents done, ${failed} failed`),
    h('table', {}, h('caption', { class: 'sr-only' }, 'Per stage'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'stage'), h('th', { scope: 'col' }, 'done'),
        h('th', { scope: 'col' }, 'failed'), h('th', { scope: 'col' }, 'chunks'))),
      h('tbody', {}, stages.map(([name, count]) => h('tr', {}, h('td', {}, name), h('td', {}, count.done),
        h('td', {}, count.failed), h('td', {}, count.chunks))))),
    job.failures.length ? h('ul', { class: 'failures' }, job.failures.map((f) =>
      h('li', {}, `${f.source || f.documentId} — ${f.stage}: ${f.reason}`))) : null,
    job.warnings && job.warnings.length ? h('ul', {}, job.warnings.map((w) => h('li', {}, `${w.documentId}: ${w.message}`))) : null,
    job.usage ? h('p', { class: 'usage' }, `LLM: ${job.usage.calls} calls, ${job.usage.inputTokens} tokens in`
      + ` (${job.usage.cachedInputTokens} cached), ${job.usage.outputTokens} out, cost `
      + (job.usage.cost === undefined ? 'unknown' : job.usage.cost.toFixed(4))) : null,
  ].filter((child) => child !== null));
}

// a collection's enrichment settings (ingest pipeline: /api/collections/{name}/settings)
const ROLES = ['contextualizer', 'graph-extractor', 'summarizer'];

async function loadSettings() {
  const name = collection();
  delete $('#settings-form').dataset.collection;
  const settings = await api(`${ingestUrl}/api/collections/${encodeURIComponent(name)}/settings`);
  $('#settings-contextualizer').value = settings.contextualizer;
  $('#settings-graph').value = settings.graphExtractor;
  $('#settings-summaries').value = settings.summaries;
  for (const role of ROLES) {
    const choice = settings.models && settings.models[role];
    $(`#settings-model-${role}`).value = choice ? choice.provider + (choice.model ? `:${choice.model}` : '') : '';
  }
  $('#settings-max-tokens').value = settings.budget?.maxTokens ?? '';
  $('#settings-max-cost').value = settings.budget?.maxCost ?? '';
  $('#settings-form').dataset.collection = name; // the form now shows this collection's settings
}

async function saveSettings() {
  const models = {};
  for (const role of ROLES) {
    const value = $(`#settings-model-${role}`).value.trim();
    if (!value) continue;
    const colon = value.indexOf(':');
    models[role] = colon < 0 ? { provider: value } : { provider: value.slice(0, colon), model: value.slice(colon + 1) };
  }
  const maxTokens = $('#settings-max-tokens').value;
  const maxCost = $('#settings-max-cost').value;
  const body = {
    contextualizer: $('#settings-contextualizer').value, graphExtractor: $('#settings-graph').value,
    summaries: $('#settings-summaries').value, models,
    budget: maxTokens || maxCost ? { maxTokens: maxTokens ? Number(maxTokens) : null, maxCost: maxCost ? Number(maxCost) : null } : null,
  };
  await api(`${ingestUrl}/api/collections/${encodeURIComponent(collection())}/settings`, json(body, 'PUT'));
  showMessage(`settings saved for ${collection()}`, 'info');
}

async function uploadFiles(files) {
  if (!files.length) return;
  const form = new FormData();
  form.append('collection', collection());
  for (const file of files) form.append('files', file, file.name);
  const accepted = await api(`${ingestUrl}/api/documents`, { method: 'POST', body: form });
  if (accepted.rejected && accepted.rejected.length) {
    showMessage(`refused: ${accepted.rejected.map((r) => `${r.source || r.name}: ${r.reason}`).join('; ')}`);
  }
  watchJob(accepted.jobId, files.length === 1 ? files[0].name : `${files.length} files`);
}

function setUpIngest() {
  const drop = $('#drop');
  const picker = $('#files');
  drop.addEventListener('click', () => picker.click());
  drop.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); picker.click(); }
  });
  drop.addEventListener('dragover', (event) => { event.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', guarded(async (event) => {
    drop.classList.remove('over');
    await uploadFiles([...event.dataTransfer.files]);
  }));
  picker.addEventListener('change', guarded(async () => {
    await uploadFiles([...picker.files]);
    picker.value = '';
  }));
  $('#paste-form').addEventListener('submit', guarded(async () => {
    const title = $('#paste-title').value.trim();
    const accepted = await api(`${ingestUrl}/api/documents`, json({ title, text: $('#paste-text').value, collection: collection() }));
    watchJob(accepted.jobId, title);
    $('#paste-form').reset();
  }));
  $('#settings-form').addEventListener('submit', guarded(saveSettings));
  $('#crawl-form').addEventListener('submit', guarded(async () => {
    const url = $('#crawl-url').value.trim();
    const started = await api(`${ingestUrl}/api/crawls`, json({ seedUrls: [url], collection: collection(),
      maxPages: Number($('#crawl-pages').value) || 50 }));
    watchJob(started.jobId, `crawl of ${url}`);
  }));
  $('#credentials-form').addEventListener('submit', guarded(saveCredential));
  loadCredentials().catch(() => {}); // an admin key lists them; others see the form only
}

// ---------------------------------------------------------------- crawl credentials

function listOf(text) {
  return text.split(/[\s,]+/).map((item) => item.trim()).filter(Boolean);
}

async function loadCredentials() {
  const { credentials } = await api(`${ingestUrl}/api/credentials`);
  $('#credentials-list').replaceChildren(...credentials.map((c) => h('li', { class: c.state === 'usable' ? '' : 'unusable' },
    h('strong', {}, c.name), ` sites: ${c.sites.join(', ') || 'none'}; collections: ${c.collections.join(', ')};`
      + ` fields: ${c.fields.join(', ')}; ${c.state}`, c.reason ? h('p', { class: 'hint' }, c.reason) : null)));
}

/** Creates a credential (values given) or replaces the sites and collections of an existing one (no values). */
async function saveCredential() {
  const name = $('#credential-name').value.trim();
  const sites = listOf($('#credential-sites').value);
  const collections = listOf($('#credential-collections').value);
  const values = {};
  for (const line of $('#credential-values').value.split('\n').filter((l) => l.trim())) {
    const equals = line.indexOf('=');
    if (equals <= 0) throw new Error(`values are FIELD=VALUE lines; '${line.slice(0, Math.max(equals, 0))}...' is not`);
    values[line.slice(0, equals)] = line.slice(equals + 1);
  }
  if (Object.keys(values).length) {
    await api(`${ingestUrl}/api/credentials`, json({ name, sites, values,
      collections: collections.length ? collections : [collection()] }));
    showMessage(`credential ${name} saved; its values are not shown again`, 'info');
  } else {
    await api(`${ingestUrl}/api/credentials/${encodeURIComponent(name)}`,
      json(collections.length ? { sites, collections } : { sites }, 'PATCH'));
    showMessage(`credential ${name}: sites replaced`, 'info');
  }
  $('#credential-values').value = '';
  await loadCredentials();
}

// ---------------------------------------------------------------- documents

let documentsPage = 1;

async function loadDocuments() {
  const filter = $('#documents-filter').value.trim();
  const query = new URLSearchParams({ collection: collection(), page: documentsPage, size: 20 });
  if (filter) query.set('q', filter);
  const metadata = documentFilters?.filter();
  if (metadata) query.set('filter', JSON.stringify(metadata));
  let listing;
  try {
    listing = await api(`api/documents?${query}`);
  } catch (e) {
    $('#documents-table tbody').replaceChildren(h('tr', {}, h('td', { colspan: 3 }, e.message)));
    $('#documents-page').textContent = '';
    return;
  }
  $('#documents-table tbody').replaceChildren(...listing.documents.map((d) => {
    const row = h('tr', { tabindex: 0, 'data-document': d.documentId }, h('td', {}, d.title || d.documentId), h('td', {}, d.chunkCount),
      h('td', {}, d.updatedAt ? new Date(d.updatedAt).toLocaleString() : ''));
    const open = guarded(() => openDocument(d.documentId));
    row.addEventListener('click', open);
    row.addEventListener('keydown', (event) => { if (event.key === 'Enter') open(event); });
    return row;
  }));
  const pages = Math.max(1, Math.ceil(listing.total / listing.size));
  $('#documents-page').textContent = `page ${listing.page} of ${pages} (${listing.total} documents)`;
  $('#documents-prev').disabled = listing.page <= 1;
  $('#documents-next').disabled = listing.page >= pages;
}

/**
 * The cited span in the document's text (GET /api/documents/{id}/text): highlighted, with its page
 * (PDF) and headings; offsets are UTF-16 code units, which String.slice counts too. A stale span says
 * so instead of highlighting anything.
 */
async function citedText(documentId, span) {
  if (!span) return null;
  if (span.start === undefined || span.start === null) {
    return h('p', { class: 'hint', id: 'cited-stale' }, `The cited passage has no exact place in this document: ${span.reason || 'unknown'}`);
  }
  const query = new URLSearchParams({ collection: collection(), version: span.version || '' });
  let view;
  try {
    view = await api(`api/documents/${encodeURIComponent(documentId)}/text?${query}`);
  } catch (e) {
    return h('p', { class: 'hint', id: 'cited-stale' }, `The cited passage cannot be shown: ${e.message}`);
  }
  const where = [span.page ? `page ${span.page}` : null, span.headingPath ? span.headingPath.join(' › ') : null].filter(Boolean).join(' · ');
  return h('section', { class: 'cited', 'aria-label': 'cited passage in the document' },
    h('h4', {}, 'Cited passage', where ? ` · ${where}` : ''),
    h('pre', { class: 'document-text' }, view.text.slice(0, span.start),
      h('mark', { id: 'cited', 'data-page': span.page ?? '' }, view.text.slice(span.start, span.end)), view.text.slice(span.end)));
}

/** The document's way through the pipeline (ingest: GET /api/documents/{id}/timeline), or nothing when none is kept. */
async function timeline(documentId) {
  let t;
  try {
    t = await api(`${ingestUrl}/api/documents/${encodeURIComponent(documentId)}/timeline?collection=${encodeURIComponent(collection())}`);
  } catch (e) {
    return null;
  }
  const took = (step) => (step.startedAt && step.finishedAt ? `${Date.parse(step.finishedAt) - Date.parse(step.startedAt)} ms` : '');
  return h('details', { class: 'timeline' }, h('summary', {}, `Timeline · trace ${t.traceId}`),
    h('table', {}, h('caption', { class: 'sr-only' }, 'Stages the document passed'),
      h('thead', {}, h('tr', {}, ...['stage', 'instance', 'started', 'took', 'attempts', 'waited', 'outcome'].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, t.stages.map((step) => h('tr', {}, h('td', {}, step.stage), h('td', {}, step.instance || ''),
        h('td', {}, step.startedAt ? new Date(step.startedAt).toLocaleTimeString() : ''), h('td', {}, took(step)),
        h('td', {}, step.attempts), h('td', {}, `${step.waitedMs} ms`), h('td', {}, step.reason ? `${step.outcome}: ${step.reason}` : step.outcome))))));
}

async function openDocument(documentId, chunkId, span) {
  const detail = await api(`api/documents/${encodeURIComponent(documentId)}?collection=${encodeURIComponent(collection())}`);
  const d = detail.document;
  const cited = await citedText(documentId, span);
  const journey = await timeline(documentId);
  $('#document-detail').replaceChildren(
    h('h3', {}, d.title || d.documentId),
    h('p', { class: 'hint' }, d.sourceUri || '', ` · ${d.chunkCount} chunks`),
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'danger', onclick: guarded(() => deleteDocument(d)) }, 'Delete'),
      h('button', { type: 'button', class: 'secondary', onclick: guarded(() => reingest(d, detail.chunks)) }, 'Re-ingest'),
      h('button', { type: 'button', class: 'secondary', onclick: () => showGraph({ document: d.documentId }) }, 'Show graph')),
    ...(journey ? [journey] : []),
    ...(cited ? [cited] : []),
    ...detail.chunks.map((c) => h('div', { class: c.chunkId === chunkId ? 'chunk highlight' : 'chunk', id: `chunk-${c.chunkIndex}` },
      h('strong', {}, `#${c.chunkIndex}`, c.headingPath.length ? ` · ${c.headingPath.join(' › ')}` : ''),
      c.context ? h('div', { class: 'context' }, c.context) : null,
      h('div', { class: 'text' }, c.text))));
  if (cited) document.getElementById('cited')?.scrollIntoView({ block: 'center' });
  else if (chunkId) document.querySelector('.chunk.highlight')?.scrollIntoView({ block: 'center' });
}

async function deleteDocument(d) {
  if (!confirm(`Delete "${d.title || d.documentId}" from every store?`)) return;
  await api(`${ingestUrl}/api/documents/${encodeURIComponent(d.documentId)}?collection=${encodeURIComponent(collection())}`,
    { method: 'DELETE' });
  showMessage(`deleting ${d.title || d.documentId}`, 'info');
  $('#document-detail').replaceChildren(h('p', { class: 'hint' }, 'Deleted.'));
  setTimeout(() => loadDocuments().catch((e) => showMessage(e.message)), 1500);
}

/** Sends the stored text again (same uri, so it replaces the document): re-chunks, re-contextualizes, re-embeds. */
async function reingest(d, chunks) {
  const text = chunks.map((c) => c.text).join('\n\n');
  const accepted = await api(`${ingestUrl}/api/documents`, json({ title: d.title, uri: d.sourceUri, text, collection: collection() }));
  location.hash = '#ingest';
  watchJob(accepted.jobId, `re-ingest of ${d.title || d.documentId}`);
}

// ---------------------------------------------------------------- graph

let cy;

function graphStyle() {
  return [
    { selector: 'node', style: { label: 'data(label)', 'font-size': 10, 'text-wrap': 'ellipsis', 'text-max-width': 120,
      'background-color': '#7b8794', width: 18, height: 18 } },
    { selector: 'node[kind = "Entity"]', style: { 'background-color': '#1f5fbf' } },
    { selector: 'node[kind = "Document"]', style: { 'background-color': '#1b7a3d', shape: 'round-rectangle', width: 26 } },
    { selector: 'node[kind = "Operation"]', style: { 'background-color': '#b0611c', shape: 'diamond' } },
    { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#f5a623' } },
    { selector: 'edge', style: { width: 1, 'line-color': '#c3cbd3', 'target-arrow-shape': 'triangle',
      'target-arrow-color': '#c3cbd3', 'curve-style': 'bezier', label: 'data(type)', 'font-size': 7, color: '#5b6773' } },
  ];
}

async function showGraph({ entity, document: documentId, hops = 1 }) {
  location.hash = '#graph';
  const query = new URLSearchParams({ collection: collection(), hops });
  if (entity) query.set('entity', entity); else query.set('document', documentId);
  const neighbourhood = await api(`api/graph/neighbourhood?${query}`);
  if (!cy) {
    cy = window.cytoscape({ container: $('#cy'), style: graphStyle(), wheelSensitivity: 0.3 });
    cy.on('tap', 'node', guarded((event) => expand(event.target)));
  }
  merge(neighbourhood);
}

function merge(neighbourhood) {
  const added = [];
  for (const node of neighbourhood.nodes) {
    if (cy.getElementById(node.id).empty()) {
      added.push({ group: 'nodes', data: { id: node.id, label: node.name || node.id, kind: node.label, properties: node.properties } });
    }
  }
  for (const edge of neighbourhood.edges) {
    const id = `${edge.from}|${edge.type}|${edge.to}`;
    if (cy.getElementById(id).empty()) added.push({ group: 'edges', data: { id, source: edge.from, target: edge.to, type: edge.type } });
  }
  cy.add(added);
  cy.layout({ name: 'cose', animate: false, nodeDimensionsIncludeLabels: true }).run();
  $('#graph-detail').replaceChildren(h('p', {}, `${cy.nodes().length} nodes, ${cy.edges().length} edges`),
    h('p', { class: 'hint' }, 'Click an entity to expand it.'));
}

async function expand(node) {
  const data = node.data();
  $('#graph-detail').replaceChildren(h('h3', {}, data.label), h('p', { class: 'badge' }, data.kind),
    h('dl', {}, Object.entries(data.properties || {}).filter(([, v]) => v !== null)
      .flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, String(v))])));
  if (data.kind === 'Entity') {
    const query = new URLSearchParams({ collection: collection(), entity: data.id, hops: 1 });
    merge(await api(`api/graph/neighbourhood?${query}`));
  } else if (data.kind === 'Chunk' && data.properties?.documentId) {
    $('#graph-detail').append(h('button', { type: 'button', class: 'secondary',
      onclick: guarded(() => { location.hash = '#documents'; return openDocument(data.properties.documentId, data.id); }) }, 'Open chunk'));
  }
}

function setUpGraph() {
  $('#graph-form').addEventListener('submit', guarded(async () => {
    const entity = $('#graph-entity').value.trim();
    const documentId = $('#graph-document').value.trim();
    if (!entity && !documentId) throw new Error('name an entity or a document id');
    if (cy) cy.elements().remove();
    await showGraph({ entity: entity || undefined, document: documentId || undefined, hops: Number($('#graph-hops').value) || 1 });
  }));
}

// ---------------------------------------------------------------- memory

function scope() {
  return $('#memory-scope').value.trim();
}

function memoryCard(memory, score) {
  const item = h('li', { 'data-memory': memory.id },
    memory.pinned ? h('span', { class: 'badge pinned' }, 'pinned') : null,
    memory.forgottenAt ? h('span', { class: 'badge forgotten' }, 'forgotten') : null,
    ...(memory.tags || []).map((tag) => h('span', { class: 'badge' }, tag)),
    score !== undefined ? h('span', { class: 'badge' }, `score ${score.toFixed(3)}`) : null,
    h('div', { class: 'text' }, memory.text),
    h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'secondary', onclick: guarded(() => act(memory.id, memory.pinned ? 'unpin' : 'pin', item)) },
        memory.pinned ? 'Unpin' : 'Pin'),
      memory.forgottenAt
        ? h('button', { type: 'button', class: 'secondary', onclick: guarded(() => act(memory.id, 'restore', item)) }, 'Restore')
        : h('button', { type: 'button', class: 'danger', onclick: guarded(() => act(memory.id, 'forget', item)) }, 'Forget')));
  return item;
}

async function act(id, action, item) {
  const path = `api/memories/${encodeURIComponent(id)}/${action === 'unpin' ? 'pin' : action}`;
  const memory = await api(path, { method: action === 'unpin' ? 'DELETE' : 'POST' });
  item.replaceWith(memoryCard(memory));
  showMessage(`memory ${action === 'forget' ? 'forgotten' : action === 'restore' ? 'restored' : action + 'ned'}`, 'info');
}

async function loadMemories() {
  const [listing, corrections] = await Promise.all([
    api(`api/memories?scope=${encodeURIComponent(scope())}`),
    api(`api/corrections?scope=${encodeURIComponent(scope())}`)]);
  $('#memories').replaceChildren(...(listing.memories.length ? listing.memories.map((m) => memoryCard(m))
    : [h('li', { class: 'hint' }, 'No memories in this scope.')]));
  $('#corrections').replaceChildren(...(corrections.corrections.length ? corrections.corrections.map((c) => h('li', {},
    h('div', { class: 'text' }, c.text), h('div', { class: 'hint' }, c.chunkId ? `corrects ${c.chunkId}` : c.memoryId
      ? `corrects memory ${c.memoryId}` : `for "${c.query}"`)))
    : [h('li', { class: 'hint' }, 'No corrections in this scope.')]));
}

/** How the search read the time its query names: what happened then ranks higher, nothing is filtered out. */
function periodText(period) {
  const day = (iso) => iso.slice(0, 10);
  const span = period.from && period.to ? `from ${day(period.from)} until ${day(period.to)}`
    : period.from ? `from ${day(period.from)} on` : `until ${day(period.to)}`;
  const event = period.event ? ` ("${period.event}", dated by memory ${period.datedBy})` : '';
  return `Read as a time ${span}${event}: what happened then ranks higher.`;
}

function setUpMemory() {
  $('#memory-scope-form').addEventListener('submit', guarded(loadMemories));
  $('#memory-search-form').addEventListener('submit', guarded(async () => {
    const query = $('#memory-query').value.trim();
    if (!query) return loadMemories();
    const found = await api('api/memories/search', json({ scope: scope(), query, k: 10, includeForgotten: $('#memory-forgotten').checked }));
    const period = found.period ? [h('li', { class: 'hint', id: 'memory-period' }, periodText(found.period))] : [];
    $('#memories').replaceChildren(...period, ...(found.results.length ? found.results.map((r) => memoryCard(r.memory, r.score))
      : [h('li', { class: 'hint' }, 'Nothing similar.')]));
  }));
  $('#memory-add-form').addEventListener('submit', guarded(async () => {
    await api('api/memories', json({ scope: scope(), text: $('#memory-text').value, pinned: $('#memory-pinned').checked }));
    $('#memory-add-form').reset();
    await loadMemories();
  }));
}

// ---------------------------------------------------------------- chat and search

function renderSources(sources) {
  $('#sources').replaceChildren(...sources.map((s) => h('li', { id: `source-${s.n}`, value: s.n },
    h('a', { href: `#documents`, onclick: guarded(async () => { location.hash = '#documents'; await openDocument(s.documentId, s.chunkId, s.spans?.[0]); }) },
      s.title || s.documentId, ` #${s.chunkIndex}`),
    h('div', { class: 'hint' }, s.text.length > 280 ? `${s.text.slice(0, 280)}…` : s.text))));
}

/** Turns the streamed answer's [n] into links to source n. */
function linkCitations(answer) {
  const parts = answer.textContent.split(/(\[\d+\])/);
  answer.replaceChildren(...parts.map((part) => {
    const cited = /^\[(\d+)\]$/.exec(part);
    if (!cited) return part;
    return h('a', { href: `#source-${cited[1]}`, class: 'cite', 'aria-label': `source ${cited[1]}`, onclick: (event) => {
      event.preventDefault();
      const source = document.getElementById(`source-${cited[1]}`);
      source?.scrollIntoView({ block: 'center' });
      source?.querySelector('a')?.focus();
    } }, part);
  }));
}

/** POST /api/ask as a stream: token events grow the answer, then the sources arrive, then done. */
async function ask() {
  const question = $('#question').value.trim();
  if (!question) throw new Error('type a question first');
  $('#answer').textContent = '';
  $('#sources').replaceChildren();
  $('#search-results').replaceChildren();
  let response;
  try {
    response = await fetch('api/ask', { method: 'POST', headers: withKey({ 'Content-Type': 'application/json', Accept: 'text/event-stream' }),
      body: JSON.stringify({ question, ...scopeOf($('#chat-collections').value, collection()), filter: chatFilters?.filter() }) });
  } catch (e) {
    throw new Error('cannot reach the query API');
  }
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new Error(body.message || `${response.status} ${response.statusText}`);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      handleAskEvent(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
    }
  }
}

function handleAskEvent(block) {
  let name = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) name = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (!data.length) return;
  const payload = JSON.parse(data.join('\n'));
  if (name === 'token') $('#answer').append(payload.text);
  else if (name === 'sources') renderSources(payload.sources);
  else if (name === 'done') {
    linkCitations($('#answer'));
    $('#answer').dataset.mode = payload.mode;
    $('#answer').append(h('div', { class: 'hint' }, `\n${payload.mode} answer`, payload.fallbackReason ? ` (${payload.fallbackReason})` : '',
      ` · ${payload.tookMs} ms`));
  } else if (name === 'error') showMessage(payload.message);
}

async function search() {
  const query = $('#question').value.trim();
  if (!query) throw new Error('type a query first');
  const found = await api('api/search', json({ query, k: 10, ...scopeOf($('#chat-collections').value, collection()),
    filter: chatFilters?.filter(), mode: $('#search-mode').value, explain: true }));
  $('#answer').textContent = '';
  $('#sources').replaceChildren();
  $('#search-results').replaceChildren(
    h('p', { class: 'hint' }, `${found.results.length} results in ${found.tookMs} ms`, found.route ? ` · automatic chose ${found.route.mode}: ${found.route.reason}` : '',
      found.degraded ? ` · degraded: ${found.degraded.join(', ')}` : '',
      found.unknownFilterKeys ? ` · no document has ${found.unknownFilterKeys.join(', ')}` : ''),
    h('table', {}, h('caption', { class: 'sr-only' }, 'Search results with the rank per retriever'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, 'result'), h('th', { scope: 'col' }, 'score'),
        h('th', { scope: 'col' }, 'rank per retriever'))),
      h('tbody', {}, found.results.map((r, i) => {
        const row = h('tr', { tabindex: 0 }, h('td', {}, i + 1),
          h('td', {}, h('strong', {}, r.title || r.documentId, ` #${r.chunkIndex}`), found.collections ? ` · ${r.collection}` : '',
            h('div', { class: 'hint' }, r.text.slice(0, 200))),
          h('td', {}, r.score.toFixed(4)),
          h('td', { class: 'ranks' }, Object.entries(r.ranks).map(([k, v]) => `${k} ${v}`).join(' · ')));
        const open = guarded(async () => { location.hash = '#documents'; await openDocument(r.documentId, r.chunkId, r.spans?.[0]); });
        row.addEventListener('click', open);
        row.addEventListener('keydown', (event) => { if (event.key === 'Enter') open(event); });
        return row;
      }))));
}

let chatFilters;
let documentFilters;

/** The filter chips of Chat and Documents (filters.js), on the header's collection. */
function setUpFilters() {
  chatFilters = filterChips({ root: $('#chat-filters'), api, h, collection, onError: showMessage });
  documentFilters = filterChips({ root: $('#documents-filters'), api, h, collection, onError: showMessage,
    onChange: () => { documentsPage = 1; loadDocuments().catch((e) => showMessage(e.message)); } });
}

function refreshFilters() {
  return Promise.all([chatFilters.refresh(), documentFilters.refresh()]);
}

function setUpChat() {
  $('#ask-form').addEventListener('submit', guarded(ask));
  $('#search-button').addEventListener('click', guarded(search));
  $('#question').addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) $('#ask-form').requestSubmit();
  });
}

// ---------------------------------------------------------------- start

function askForKey() {
  sessionStorage.removeItem('openrag.apiKey');
  apiKey = null;
  $('#key-form').hidden = false;
  $('#api-key').focus();
}

/** Checks a typed key with GET /api/auth (a wrong one is a 401), keeps it for the tab, then loads. */
async function useKey() {
  apiKey = $('#api-key').value.trim();
  const auth = await api('api/auth');
  if (!auth.caller) throw new Error('that key was not accepted');
  sessionStorage.setItem('openrag.apiKey', apiKey);
  $('#key-form').hidden = true;
  $('#api-key').value = '';
  showMessage(`key accepted: ${auth.caller.role} access`, 'info');
  await loadCollections(true);
  route();
  await refreshFilters();
}

async function start() {
  $('#key-form').addEventListener('submit', guarded(useKey));
  try {
    const config = await api('api/ui/config');
    if (config.ingestUrl) ingestUrl = config.ingestUrl;
    if (config.authEnabled && !apiKey) askForKey();
  } catch (e) {
    showMessage(`configuration: ${e.message}`);
  }
  setUpIngest();
  setUpGraph();
  setUpMemory();
  setUpChat();
  setUpFilters();
  $('#documents-form').addEventListener('submit', guarded(() => { documentsPage = 1; return loadDocuments(); }));
  $('#documents-prev').addEventListener('click', guarded(() => { documentsPage--; return loadDocuments(); }));
  $('#documents-next').addEventListener('click', guarded(() => { documentsPage++; return loadDocuments(); }));
  $('#collection').addEventListener('change', () => { refreshFilters(); route(); });
  $('#collection').addEventListener('focus', () => loadCollections(false).catch((e) => showMessage(e.message)));
  window.addEventListener('hashchange', route);
  setInterval(refreshLag, 5000);
  await loadCollections(true).catch((e) => showMessage(e.message));
  route();
  if ($('#key-form').hidden) await refreshFilters(); // else once a key is accepted
  document.body.dataset.ready = 'true';
}

start();
