// Creates a week with its files in one multipart request, and shows each file's progress in two phases:
//  1. sending: the browser's upload progress events (bytes of the request sent to this server), mapped to files by
//     their order in the request, which is the order they are sent in;
//  2. storing: the server's progress endpoint, fed by the uploader's listener while it writes the files to the
//     storage (local disk or S3), polled until the request answers.
// Or, where the server grants direct uploads (profile localstack), straight to the storage: the files are described
// (name, size, type, SHA-256) to get a signed PUT each, sent to the storage with each one's progress, and the week is
// then created with the grants' ids; the server confirms what arrived.
// Beside the form, the study's weeks with their files (GET /api/studies/{id}/weeks), listed again after each new week.
// File names are only ever set as text, never as HTML.
'use strict';

const form = document.getElementById('week-form');
const studyForm = document.getElementById('study-form');
const studyInput = document.getElementById('study-id');
const rows = document.getElementById('progress-rows');
const errorBox = document.getElementById('error');
const statusBox = document.getElementById('status');
const button = document.getElementById('submit');
const POLL_MS = 200;
/** Parts of one file sent at once, when it goes in parts. */
const PARTS_AT_ONCE = 3;
/** Files larger than this go to S3 in parts, without a checksum (the server's limits say it). */
let directPartsAbove = Infinity;

form.addEventListener('submit', event => {
  event.preventDefault();
  if (form.elements.direct.checked) {
    uploadDirect();
  } else {
    upload();
  }
});
studyForm.addEventListener('submit', event => {
  event.preventDefault();
  listWeeks(studyInput.value);
});
showLimits();
listWeeks(studyInput.value);

async function showLimits() {
  const response = await fetch('/api/limits', { headers: { Accept: 'application/json' } });
  if (response.ok) {
    const limits = await response.json();
    document.getElementById('limits').textContent = limits.text;
    document.getElementById('direct-choice').hidden = !limits.direct;
    directPartsAbove = limits.directPartsAbove;
  }
}

/** The study's weeks, latest first, each with its files. */
async function listWeeks(studyId) {
  document.getElementById('weeks-study').textContent = studyId;
  const response = await fetch(`/api/studies/${encodeURIComponent(studyId)}/weeks`,
      { headers: { Accept: 'application/json' } });
  const weeks = response.ok ? await response.json() : [];
  document.getElementById('weeks').replaceChildren(...weeks.map(week => {
    const item = document.createElement('li');
    item.className = 'week';
    item.dataset.weekId = week.id;
    const title = document.createElement('h3');
    title.textContent = week.title;
    const dates = document.createElement('p');
    dates.className = 'dates-text';
    dates.textContent = `${week.startDate} to ${week.endDate} · ${count(week.attachments.length)}`;
    item.append(title, dates);
    if (week.content) {
      const about = document.createElement('p');
      about.className = 'about';
      about.textContent = week.content;
      item.append(about);
    }
    item.append(fileList(week.attachments));
    return item;
  }));
  document.getElementById('weeks-empty').hidden = weeks.length > 0;
}

function upload() {
  const fields = new FormData(form);
  const studyId = studyInput.value;
  const files = Array.from(form.elements.files.files);
  const uploadId = newId();

  const body = new FormData();
  for (const name of ['title', 'content', 'startDate', 'endDate']) {
    body.append(name, fields.get(name));
  }
  files.forEach(file => body.append('files', file, file.name));

  const view = start(files);

  const xhr = new XMLHttpRequest();
  let polling = null;
  let answered = false; // a poll that returns after the answer must not overwrite it
  const deferred = fields.get('deferred') === 'on';
  xhr.open('POST', `/api/studies/${encodeURIComponent(studyId)}/weeks${deferred ? '?deferred=true' : ''}`);
  xhr.setRequestHeader('X-Upload-Id', uploadId);
  xhr.setRequestHeader('Accept', 'application/json');
  xhr.upload.onprogress = event => showSent(view, event.loaded);
  xhr.upload.onload = () => {
    view.forEach(file => setState(file, 'queued', 0));
    polling = setInterval(() => poll(uploadId, view, () => answered), POLL_MS);
  };
  xhr.onloadend = () => {
    answered = true;
    clearInterval(polling);
    button.disabled = false;
    if (xhr.status === 201) {
      view.forEach(file => setState(file, 'stored', 1));
      showStatus('Saved.');
      showWeek(JSON.parse(xhr.responseText));
      listWeeks(studyId);
    } else if (xhr.status === 202) {
      showStatus('Saved; the files are being stored.');
      followDeferred(JSON.parse(xhr.responseText), view, () => listWeeks(studyId));
    } else {
      view.forEach(file => setState(file, 'not-saved', 0));
      showStatus(null);
      showProblem(xhr);
    }
  };
  xhr.send(body);
}

/** Files straight to the storage, each on a grant of the server; then the week, with the grants' ids. */
async function uploadDirect() {
  const fields = new FormData(form);
  const studyId = encodeURIComponent(studyInput.value);
  const files = Array.from(form.elements.files.files);
  const view = start(files);
  try {
    // A file sent in parts gets no checksum: S3 keeps one per part, and reading a large file whole costs its size.
    const described = await Promise.all(files.map(async file => ({ name: file.name, size: file.size,
      type: file.type, sha256: file.size > directPartsAbove ? null : await sha256(file) })));
    const grants = await json(await post(`/api/studies/${studyId}/grants`, described), 201);
    await Promise.all(grants.map((grant, i) => send(grant, files[i], view[i])));
    view.forEach(file => setState(file, 'confirming', 1));
    const week = {};
    for (const name of ['title', 'content', 'startDate', 'endDate']) {
      week[name] = fields.get(name);
    }
    const created = await json(await post(`/api/studies/${studyId}/weeks`,
        { week, grants: grants.map(grant => grant.id) }), 201);
    view.forEach(file => setState(file, 'stored', 1));
    showStatus('Saved.');
    showWeek(created);
    listWeeks(studyInput.value);
  } catch (failure) {
    view.forEach(file => setState(file, 'not-saved', 0));
    showStatus(null);
    showError(failure.message);
  } finally {
    button.disabled = false;
  }
}

/** This submission's rows, the form's messages cleared, the button off until the answer. */
function start(files) {
  rows.replaceChildren(); // this submission's files only, not the previous one's
  const view = files.map(showFile);
  document.getElementById('progress').hidden = false;
  document.getElementById('result').hidden = true;
  errorBox.hidden = true;
  showStatus(`Uploading ${count(files.length)}…`);
  button.disabled = true;
  return view;
}

function post(url, body) {
  return fetch(url, { method: 'POST', body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' } });
}

/** The answer's JSON when its status is the one expected; else an error with the server's problem detail. */
async function json(response, expected) {
  const text = await response.text();
  if (response.status === expected) {
    return JSON.parse(text);
  }
  throw new Error(problemText(response.status, text));
}

/**
 * One file to the storage, on its grant's signed request (or a request per part, a few parts at once), exactly as
 * signed: its progress shown as it goes.
 */
async function send(grant, file, row) {
  if (grant.parts.length === 0) {
    await put(grant.method, grant.url, grant.headers, file, file.name, loaded => setState(row, 'sending',
        file.size === 0 ? 1 : loaded / file.size));
  } else {
    const loaded = grant.parts.map(() => 0);
    const next = { part: 0 };
    const sender = async () => {
      for (let i = next.part++; i < grant.parts.length; i = next.part++) {
        const from = i * grant.partSize;
        await put(grant.method, grant.parts[i].url, grant.parts[i].headers,
            file.slice(from, Math.min(file.size, from + grant.partSize)), `part ${i + 1} of ${file.name}`, bytes => {
              loaded[i] = bytes;
              setState(row, 'sending', loaded.reduce((a, b) => a + b, 0) / file.size);
            });
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARTS_AT_ONCE, grant.parts.length) }, sender));
  }
  setState(row, 'sent', 1);
}

/** One signed request with its body; rejects, naming what it sent (never the URL), when the storage refuses it. */
function put(method, url, headers, body, name, progress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    Object.entries(headers).forEach(([name, value]) => xhr.setRequestHeader(name, value));
    xhr.upload.onprogress = event => progress(event.loaded);
    xhr.onloadend = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve();
      } else {
        reject(new Error(`The storage refused ${name} (HTTP ${xhr.status || 'no answer'}). Nothing was saved.`));
      }
    };
    xhr.send(body);
  });
}

/** The file's SHA-256, Base64: the storage refuses any other bytes on the signed request. */
async function sha256(file) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await file.arrayBuffer()));
  return btoa(String.fromCharCode(...digest));
}

function showFile(file) {
  const row = rows.insertRow();
  row.dataset.file = file.name;
  row.insertCell().textContent = file.name;
  row.insertCell().textContent = size(file.size);
  const bar = document.createElement('progress');
  bar.max = 1;
  bar.value = 0;
  bar.setAttribute('aria-label', `${file.name}: progress`);
  row.insertCell().append(bar);
  const state = row.insertCell();
  const view = { file, row, bar, state };
  setState(view, 'sending', 0);
  return view;
}

/** The request sends the form fields, then the files in order: bytes sent so far fall into one file after another. */
function showSent(view, loaded) {
  const total = view.reduce((sum, f) => sum + f.file.size, 0);
  const overhead = Math.max(0, loaded - total); // part headers: counted as sent first, a slight overestimate
  let remaining = loaded - overhead;
  for (const file of view) {
    const sent = Math.min(file.file.size, Math.max(0, remaining));
    remaining -= file.file.size;
    setState(file, 'sending', file.file.size === 0 ? 1 : sent / file.file.size);
  }
}

async function poll(uploadId, view, answered) {
  const response = await fetch(`/api/uploads/${uploadId}`, { headers: { Accept: 'application/json' } });
  if (!response.ok) {
    return; // not started yet, or already finished: the request's own answer will tell
  }
  const progress = await response.json();
  if (answered()) {
    return;
  }
  progress.forEach((p, i) => {
    const file = view[i];
    if (file) {
      const fraction = p.size > 0 ? p.bytesStored / p.size : (p.state === 'STORED' ? 1 : 0);
      setState(file, p.state.toLowerCase(), fraction);
    }
  });
}

/** A week created deferred: its files are pending; read the week again until none is. */
function followDeferred(week, view, done) {
  const show = current => {
    current.attachments.forEach((a, i) => setState(view[i], a.state.toLowerCase(), a.state === 'STORED' ? 1 : 0));
    showWeek(current);
    if (!current.attachments.some(a => a.state === 'PENDING')) {
      done();
    } else {
      setTimeout(async () => {
        const response = await fetch(current.url, { headers: { Accept: 'application/json' } });
        if (response.ok) {
          show(await response.json());
        }
      }, POLL_MS);
    }
  };
  show(week);
}

function setState(file, state, fraction) {
  file.row.dataset.state = state;
  file.bar.value = Math.min(1, fraction);
  const percent = Math.round(Math.min(1, fraction) * 100);
  file.state.textContent = state === 'sending' || state === 'storing' ? `${state} ${percent}%` : state;
}

function showWeek(week) {
  document.getElementById('result-title').textContent =
      `${week.title} (${week.startDate} to ${week.endDate}): ${week.attachments.length} files`;
  document.getElementById('result-files').replaceChildren(...fileList(week.attachments).children);
  document.getElementById('result').hidden = false;
}

/** A week's files: each a download link, with its size, and its state unless stored. */
function fileList(attachments) {
  const list = document.createElement('ul');
  list.className = 'files';
  list.append(...attachments.map(a => {
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.href = a.url;
    link.textContent = a.fileName;
    const meta = document.createElement('span');
    meta.className = 'meta';
    meta.textContent = ` ${size(a.size)}${a.state === 'STORED' ? '' : ` · ${a.state.toLowerCase()}`}`;
    item.append(link, meta);
    return item;
  }));
  return list;
}

function showStatus(text) {
  statusBox.textContent = text || '';
  statusBox.hidden = !text;
}

function count(n) {
  return n === 1 ? '1 file' : `${n} files`;
}

function showProblem(xhr) {
  showError(problemText(xhr.status, xhr.responseText));
}

function problemText(status, text) {
  try {
    const problem = JSON.parse(text);
    return `${problem.title}: ${problem.detail}`;
  } catch (e) {
    return `The upload failed (HTTP ${status}).`; // not a problem detail (network failure)
  }
}

function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = false;
  errorBox.scrollIntoView({ block: 'nearest' });
}

function size(bytes) {
  return bytes < 1024 ? `${bytes} B` : bytes < 1048576 ? `${(bytes / 1024).toFixed(1)} KiB`
      : `${(bytes / 1048576).toFixed(1)} MiB`;
}

/** 128 random bits as 32 hex digits: the upload's secret, the only key to its progress (the server takes no less). */
function newId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, b => b.toString(16).padStart(2, '0')).join('');
}
