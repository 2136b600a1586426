// Metadata filter chips for Chat and Documents (values and counts from GET /api/facets), and the
// collections Chat covers. Plain ES module; app.js passes in its helpers.

/**
 * A chip bar in `root`: a picker of the collection's metadata fields, the chosen field's values as
 * chips ("payments (12)") that add a condition, and the conditions chosen so far as chips that
 * remove it. Values of one field are or-ed ({"in": [...]}), fields and-ed, as the API's filter does.
 */
export function filterChips({ root, api, h, collection, onChange = () => {}, onError = () => {} }) {
  const chosen = new Map(); // field -> Map(JSON of the value -> the value, typed as the facet gave it)
  const label = root.dataset.label || 'Filter';
  const fields = h('select', { class: 'facet-field', 'aria-label': `${label}: metadata field` });
  const values = h('div', { class: 'facet-values', role: 'group', 'aria-label': `${label}: values to add` });
  const active = h('div', { class: 'filter-chips', role: 'group', 'aria-label': `${label}: active filters`, 'aria-live': 'polite' });
  root.replaceChildren(fields, values, active);

  const query = (more = {}) => new URLSearchParams({ collection: collection(), ...more });

  async function loadFields() {
    const facets = await api(`api/facets?${query()}`);
    fields.replaceChildren(h('option', { value: '' }, facets.fields.length ? 'filter by…' : 'no metadata'),
      ...facets.fields.map((field) => h('option', { value: field }, field)));
  }

  async function loadValues(field) {
    if (!field) {
      values.replaceChildren();
      return;
    }
    const facets = await api(`api/facets?${query({ field })}`);
    values.replaceChildren(...facets.values.map((v) => h('button', { type: 'button', class: 'chip', 'data-field': field,
      'data-value': String(v.value), onclick: () => add(field, v.value) }, `${v.value} (${v.count})`)));
  }

  function add(field, value) {
    if (!chosen.has(field)) chosen.set(field, new Map());
    chosen.get(field).set(JSON.stringify(value), value);
    render();
    onChange();
  }

  function remove(field, key) {
    chosen.get(field)?.delete(key);
    if (!chosen.get(field)?.size) chosen.delete(field);
    render();
    onChange();
  }

  function render() {
    active.replaceChildren(...[...chosen].flatMap(([field, picked]) => [...picked].map(([key, value]) => h('button', {
      type: 'button', class: 'chip active', 'data-field': field, 'data-value': String(value),
      'aria-label': `remove filter ${field}: ${value}`, onclick: () => remove(field, key) }, `${field}: ${value} ×`))));
  }

  fields.addEventListener('change', () => loadValues(fields.value).catch((e) => onError(e.message)));

  return {
    /** The API's filter for the chosen chips; undefined when none is chosen (JSON.stringify leaves it out). */
    filter() {
      if (!chosen.size) return undefined;
      const filter = {};
      for (const [field, picked] of chosen) {
        const list = [...picked.values()];
        filter[field] = list.length === 1 ? list[0] : { in: list };
      }
      return filter;
    },
    /** For another collection: its fields, no values shown, no chip chosen. */
    refresh() {
      chosen.clear();
      render();
      values.replaceChildren();
      return loadFields().catch((e) => onError(e.message));
    },
  };
}

/**
 * The collections a Chat question or search covers: those typed ("a, b", or "*" for every one the
 * key may read) as `collections`, else the header's as `collection`.
 */
export function scopeOf(typed, current) {
  const names = typed.split(',').map((name) => name.trim()).filter(Boolean);
  return names.length ? { collections: names } : { collection: current };
}
