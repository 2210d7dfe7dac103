// Creates a week with its files in one multipart request, and shows each file's progress in two phases:
//  1. sending: the browser's upload progress events (bytes of the request sent to this server), mapped to files by
//     their order in the request, which is the order they are sent in;
//  2. storing: the server's progress endpoint, fed by the uploader's listener while it writes the files to the
//     storage (local disk or S3), polled until the request answers.
// File names are only ever set as text, never as HTML.
'use strict';

const form = document.getElementById('week-form');
const rows = document.getElementById('progress-rows');
const errorBox = document.getElementById('error');
const POLL_MS = 200;

form.addEventListener('submit', event => {
  event.preventDefault();
  upload();
});

function upload() {
  const fields = new FormData(form);
  const studyId = fields.get('studyId');
  const files = Array.from(form.elements.files.files);
  const uploadId = newId();

  const body = new FormData();
  for (const name of ['title', 'content', 'startDate', 'endDate']) {
    body.append(name, fields.get(name));
  }
  files.forEach(file => body.append('files', file, file.name));

  const view = files.map(showFile);
  document.getElementById('progress').hidden = false;
  document.getElementById('result').hidden = true;
  errorBox.hidden = true;
  form.querySelector('button').disabled = true;

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
    form.querySelector('button').disabled = false;
    if (xhr.status === 201) {
      view.forEach(file => setState(file, 'stored', 1));
      showWeek(JSON.parse(xhr.responseText));
    } else if (xhr.status === 202) {
      followDeferred(JSON.parse(xhr.responseText), view);
    } else {
      view.forEach(file => setState(file, 'not-saved', 0));
      showProblem(xhr);
    }
  };
  xhr.send(body);
}

function showFile(file) {
  const row = rows.insertRow();
  row.dataset.file = file.name;
  row.insertCell().textContent = file.name;
  row.insertCell().textContent = size(file.size);
  const bar = document.createElement('progress');
  bar.max = 1;
  bar.value = 0;
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
function followDeferred(week, view) {
  const show = current => {
    current.attachments.forEach((a, i) => setState(view[i], a.state.toLowerCase(), a.state === 'STORED' ? 1 : 0));
    showWeek(current);
    if (current.attachments.some(a => a.state === 'PENDING')) {
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
  const list = document.getElementById('result-files');
  list.replaceChildren(...week.attachments.map(a => {
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.href = a.url;
    link.textContent = a.fileName;
    item.append(link, ` (${size(a.size)})`, a.state === 'STORED' ? '' : ` ${a.state.toLowerCase()}`);
    return item;
  }));
  document.getElementById('result').hidden = false;
}

function showProblem(xhr) {
  let message = `The upload failed (HTTP ${xhr.status}).`;
  try {
    const problem = JSON.parse(xhr.responseText);
    message = `${problem.title}: ${problem.detail}`;
  } catch (e) {
    // not a problem detail (network failure): keep the generic message
  }
  errorBox.textContent = message;
  errorBox.hidden = false;
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
