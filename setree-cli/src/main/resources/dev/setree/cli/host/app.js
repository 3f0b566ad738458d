// The page of `setree host`. Every piece of knowledge-base text goes into the page with textContent, never as
// markup, so a fact holding <script> stays text. The access token comes from the URL's #token= and is sent
// in a header with every API request.
'use strict';

const TOKEN = new URLSearchParams(location.hash.slice(1)).get('token') || '';
const $ = (id) => document.getElementById(id);
const state = { info: null, history: [] };

/** An element with a class and text (text only: never markup). */
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function problem(message) {
  const p = $('problem');
  p.textContent = message || '';
  p.hidden = !message;
}

function headers() {
  return { 'X-SETree-Token': TOKEN, 'Content-Type': 'application/json' };
}

/** Calls the API; throws an Error with the host's message when the answer is not 2xx. */
async function api(path, body) {
  const init = body === undefined ? { headers: headers() }
    : { method: 'POST', headers: headers(), body: JSON.stringify(body) };
  const r = await fetch(path, init);
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) throw new Error((data && data.error) || ('HTTP ' + r.status));
  return data;
}

function clock(iso) {
  const d = new Date(iso);
  return d.toLocaleTimeString([], { hour12: false }) + '.' + String(d.getMilliseconds()).padStart(3, '0');
}

// ---- tabs and header -------------------------------------------------------------------------------------

function showTab(name) {
  for (const b of document.querySelectorAll('.tab')) b.classList.toggle('active', b.dataset.tab === name);
  for (const s of document.querySelectorAll('.panel')) s.hidden = s.id !== 'tab-' + name;
  document.body.dataset.tab = name;
}

async function refreshInfo() {
  const i = await api('/api/info');
  state.info = i;
  $('kb-name').textContent = i.db;
  $('kb-stats').textContent = i.leaves + ' leaves, ' + i.nodes + ' nodes, depth ' + i.depth + ', '
    + i.embedder + ', ' + i.pending_mutations + ' pending';
  const levels = $('levels');
  levels.replaceChildren(el('span', 'muted', 'levels: '));
  i.levels.forEach((n, l) => {
    const b = el('button', null, 'L' + l + ' (' + n + ')');
    b.type = 'button';
    b.dataset.level = l;
    b.addEventListener('click', () => showLevel(l));
    levels.append(b);
  });
  for (const id of ['retrieve-budget', 'chat-budget']) if (!$(id).value) $(id).value = i.default_budget;
  $('chat-llm').textContent = i.llm ? 'Chat with ' + i.llm.model + ' at ' + i.llm.base_url
    : 'No LLM configured: the chat retrieves, then tells you which flags to pass.';
  return i;
}

// ---- tree ------------------------------------------------------------------------------------------------

function nodeLine(n) {
  const line = el('div', 'node');
  line.dataset.id = n.id;
  line.append(el('span', 'toggle', n.kind === 'leaf' ? '' : '\u25b8'));
  line.append(el('span', 'id', n.id));
  line.append(el('span', 'meta', n.kind === 'leaf' ? 'leaf' : 'L' + n.level + ', ' + n.leaves_or_children));
  line.append(el('span', 'text', firstWords(n.text, 14)));
  return line;
}

function firstWords(t, n) {
  const w = (t || '').trim().split(/\s+/);
  return w.length <= n ? w.join(' ') : w.slice(0, n).join(' ') + ' \u2026';
}

function showDetails(n) {
  const d = $('details');
  d.replaceChildren();
  d.dataset.id = n.id;
  d.append(el('h2', null, n.id));
  d.append(el('p', 'muted', (n.kind === 'leaf' ? 'leaf' : 'summary, level ' + n.level) + ', ' + n.tokens
    + ' tokens' + (n.faithfulness != null ? ', faithfulness ' + n.faithfulness : '')
    + (n.summarizer ? ', ' + n.summarizer : '')));
  d.append(el('div', 'whole', n.text));
  if (n.kind === 'leaf') {
    const b = el('button', null, 'Delete this leaf');
    b.type = 'button';
    b.addEventListener('click', () => { $('delete-id').value = n.id; showTab('edit'); });
    d.append(b);
  }
}

/** Adds an expandable node of the outline: clicking it shows it whole and opens its children. */
function outlineItem(n) {
  const li = el('li');
  n.leaves_or_children = n.children_count !== undefined ? n.children_count + ' children' : '';
  const line = nodeLine(n);
  li.append(line);
  line.addEventListener('click', async () => {
    try {
      const sub = await api('/api/tree?node=' + encodeURIComponent(n.id) + '&depth=1');
      const self = sub.nodes[0];
      showDetails(self);
      if (self.kind === 'leaf') return;
      const open = li.querySelector(':scope > ul');
      if (open) { open.remove(); line.firstChild.textContent = '\u25b8'; return; }
      line.firstChild.textContent = '\u25be';
      const ul = el('ul');
      for (const c of sub.nodes.slice(1)) {
        c.children_count = c.children.length;
        ul.append(outlineItem(c));
      }
      li.append(ul);
    } catch (e) { problem(e.message); }
  });
  return li;
}

async function showRoot() {
  const t = await api('/api/tree?depth=0');
  $('list-title').textContent = 'Tree';
  $('list').hidden = true;
  const o = $('outline');
  o.hidden = false;
  o.replaceChildren();
  if (t.nodes.length === 0) { o.append(el('li', 'muted', 'empty knowledge base')); return; }
  const r = t.nodes[0];
  r.children_count = r.children.length;
  o.append(outlineItem(r));
}

function showList(title, nodes, total) {
  $('list-title').textContent = title + (total > nodes.length ? ' (first ' + nodes.length + ' of ' + total + ')' : '');
  $('outline').hidden = true;
  const list = $('list');
  list.hidden = false;
  list.replaceChildren();
  const back = el('li');
  const b = el('button', null, '\u2190 whole tree');
  b.type = 'button';
  b.addEventListener('click', showRoot);
  back.append(b);
  list.append(back);
  for (const n of nodes) {
    const li = el('li', 'hit');
    n.leaves_or_children = n.children + ' children';
    const line = nodeLine(n);
    line.addEventListener('click', () => showDetails(n));
    li.append(line);
    if (n.path) li.append(el('div', 'meta', 'under ' + n.path.join(' \u203a ')));
    list.append(li);
  }
}

async function showLevel(l) {
  try {
    const r = await api('/api/level?level=' + l);
    showList('Level ' + l + ': ' + r.total + ' node(s)', r.nodes, r.total);
  } catch (e) { problem(e.message); }
}

async function search(ev) {
  ev.preventDefault();
  const q = $('search-q').value.trim();
  if (!q) return;
  try {
    const r = await api('/api/search?q=' + encodeURIComponent(q));
    showList(r.total + ' leaf/leaves holding \u201c' + q + '\u201d', r.leaves, r.total);
    document.body.dataset.searchTotal = r.total;
  } catch (e) { problem(e.message); }
}

// ---- retrieve --------------------------------------------------------------------------------------------

function figures(r) {
  return r.tokens_used + '/' + r.budget + ' tokens, ' + (r.complete ? 'complete cover' : 'partial cover')
    + (r.cut_short ? ' (cut short: words only)' : '') + ', ' + r.items.length + ' item(s), '
    + r.latency_ms.toFixed(1) + ' ms';
}

function coverItem(n) {
  const li = el('li', n.status.replace(' ', '-'));
  li.dataset.id = n.id;
  li.dataset.status = n.status;
  n.leaves_or_children = n.status;
  const line = nodeLine(n);
  line.firstChild.textContent = n.below ? '\u25be' : '';
  line.addEventListener('click', () => showDetails(n));
  li.append(line);
  if (n.below) {
    const ul = el('ul');
    for (const c of n.below) ul.append(coverItem(c));
    li.append(ul);
  }
  return li;
}

async function retrieve(ev) {
  ev.preventDefault();
  const box = $('retrieve-result');
  box.dataset.state = 'running';
  try {
    const r = await api('/api/retrieve', { prompt: $('retrieve-prompt').value, budget: Number($('retrieve-budget').value) });
    $('retrieve-figures').textContent = figures(r) + ' \u2014 ' + r.counts.visible + ' visible, '
      + r.counts.carried + ' carried, ' + r.counts['not shown'] + ' not shown';
    $('cover').replaceChildren(...(r.cover ? [coverItem(r.cover)] : []));
    $('retrieve-text').textContent = r.text;
    box.dataset.state = 'done';
    problem('');
  } catch (e) {
    box.dataset.state = 'error';
    problem(e.message);
  }
}

// ---- chat ------------------------------------------------------------------------------------------------

/** Reads a server-sent event stream from a fetch answer, calling onEvent(name, data) per event. */
async function readEvents(resp, onEvent) {
  const reader = resp.body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      let name = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data += line.slice(5).trim();
      }
      onEvent(name, data ? JSON.parse(data) : null);
    }
  }
}

async function send(ev) {
  ev.preventDefault();
  const message = $('chat-message').value;
  if (!message.trim()) return;
  $('chat-message').value = '';
  const t = $('transcript');
  t.append(el('div', 'turn user', message));
  const turn = el('div', 'turn assistant');
  turn.dataset.state = 'retrieving';
  const answer = el('div', 'answer');
  const status = el('div', 'stat', 'retrieving\u2026');
  const ctx = el('details', 'context');
  ctx.append(el('summary', null, 'context'));
  turn.append(answer, status, ctx);
  t.append(turn);
  const started = Date.now();
  const timer = setInterval(() => {
    if (turn.dataset.state === 'asking') status.textContent = 'waiting for the LLM (' + Math.round((Date.now() - started) / 1000) + ' s)\u2026';
  }, 1000);
  const history = state.history.slice();
  let text = '';
  try {
    const resp = await fetch('/api/chat', { method: 'POST', headers: headers(),
      body: JSON.stringify({ message, budget: Number($('chat-budget').value), history }) });
    if (!resp.ok) {
      let m = 'HTTP ' + resp.status;
      try { m = (await resp.json()).error || m; } catch (e) { /* keep the status */ }
      throw new Error(m);
    }
    await readEvents(resp, (name, data) => {
      if (name === 'context') {
        ctx.querySelector('summary').textContent = 'context: ' + figures(data);
        ctx.append(el('pre', 'context-text', data.text));
        turn.dataset.state = 'asking';
        status.textContent = 'waiting for the LLM\u2026';
      } else if (name === 'piece') {
        text += data.text;
        answer.textContent = text;
        turn.dataset.state = 'streaming';
      } else if (name === 'done') {
        status.textContent = data.model + ', ' + (data.answer_ms / 1000).toFixed(1) + ' s';
        turn.dataset.state = 'done';
      } else if (name === 'error') {
        answer.append(el('div', 'error', data.message));
        status.textContent = '';
        turn.dataset.state = 'error';
        turn.dataset.kind = data.kind;
      }
    });
    if (turn.dataset.state !== 'done' && turn.dataset.state !== 'error') {
      throw new Error('the answer stopped before it was complete');
    }
    if (turn.dataset.state === 'done') {
      state.history.push({ role: 'user', content: message }, { role: 'assistant', content: text });
    }
  } catch (e) {
    answer.append(el('div', 'error', e.message));
    status.textContent = '';
    turn.dataset.state = 'error';
  } finally {
    clearInterval(timer);
  }
}

// ---- edit ------------------------------------------------------------------------------------------------

async function mutate(ev, path, body) {
  ev.preventDefault();
  const li = el('li');
  $('acks').prepend(li);
  try {
    const a = await api(path, body);
    li.dataset.seq = a.seq;
    li.dataset.leaf = a.leaf_id;
    li.textContent = a.message + ': ' + a.leaf_id + (a.duplicate ? '' : ' (mutation ' + a.seq + ', accepted '
      + clock(a.accepted_at) + ')');
    if (a.duplicate) { li.dataset.state = 'duplicate'; return; }
    li.dataset.state = 'pending';
    for (;;) {
      const v = await api('/api/visible?seq=' + a.seq);
      if (v.visible) {
        li.dataset.state = 'visible';
        li.append(el('div', 'muted', 'visible at ' + clock(v.visible_at) + ', ' + v.after_ms + ' ms after it was accepted'
          + (v.maintenance ? ' (maintenance run ' + v.maintenance.path + ': ' + v.maintenance.inserted + ' inserted, '
            + v.maintenance.deleted + ' deleted, ' + v.maintenance.total_ms.toFixed(0) + ' ms)' : '')));
        refreshInfo().catch(() => {});
        return;
      }
      li.append(el('div', 'error', v.message));
    }
  } catch (e) {
    li.dataset.state = 'error';
    li.append(el('div', 'error', e.message));
  }
}

// ---- start -----------------------------------------------------------------------------------------------

async function start() {
  for (const b of document.querySelectorAll('.tab')) b.addEventListener('click', () => showTab(b.dataset.tab));
  $('search-form').addEventListener('submit', search);
  $('retrieve-form').addEventListener('submit', retrieve);
  $('chat-form').addEventListener('submit', send);
  $('insert-form').addEventListener('submit', (ev) => {
    const text = $('insert-text').value;
    $('insert-text').value = '';
    mutate(ev, '/api/insert', { text });
  });
  $('delete-form').addEventListener('submit', (ev) => mutate(ev, '/api/delete', { leaf_id: $('delete-id').value.trim() }));
  showTab('tree');
  if (!TOKEN) {
    problem('This page needs the URL that `setree host` printed: it carries the access token after #token=.');
    return;
  }
  try {
    await refreshInfo();
    await showRoot();
    document.body.dataset.ready = '1';
    setInterval(() => refreshInfo().catch((e) => problem('the host does not answer: ' + e.message)), 3000);
  } catch (e) {
    problem(e.message);
  }
}

start();
