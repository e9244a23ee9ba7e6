{{/* The chart's name, or nameOverride. */}}
{{- define "sluice.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The release's full name, used for every object: fullnameOverride, or release-chart (the release's name when it holds the chart's). */}}
{{- define "sluice.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "sluice.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "sluice.selectorLabels" -}}
app.kubernetes.io/name: {{ include "sluice.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "sluice.labels" -}}
helm.sh/chart: {{ include "sluice.chart" . }}
{{ include "sluice.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "sluice.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "sluice.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "sluice.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* Whether an API uses the named auth provider. */}}
{{- define "sluice.usesAuth" -}}
{{- $provider := index . 1 }}
{{- with index . 0 }}
{{- if or (eq .Values.auth.inference $provider) (eq .Values.auth.management $provider) (eq .Values.auth.metrics $provider) }}true{{ end }}
{{- end }}
{{- end }}

{{/* The Secret holding the JWKS for jwt-auth: the user's, or the chart's. */}}
{{- define "sluice.authSecretName" -}}
{{- default (printf "%s-auth" (include "sluice.fullname" .)) .Values.auth.jwt.existingSecret }}
{{- end }}

{{/* Where the model store is inside the container. */}}
{{- define "sluice.modelStorePath" -}}
{{- if eq .Values.modelStore.source "image" }}{{ .Values.modelStore.image.path }}{{ else }}/models{{ end }}
{{- end }}

{{/* terminationGracePeriodSeconds: as given, else the preStop sleep, Sluice's not-ready delay and drain, and 10 s to spare. */}}
{{- define "sluice.terminationGracePeriodSeconds" -}}
{{- if kindIs "invalid" .Values.shutdown.terminationGracePeriodSeconds }}
{{- add .Values.shutdown.preStopSleepSeconds (int .Values.shutdown.notReadyDelaySeconds) .Values.shutdown.timeoutSeconds 10 }}
{{- else }}
{{- .Values.shutdown.terminationGracePeriodSeconds }}
{{- end }}
{{- end }}

{{/*
The configuration keys the chart sets from its other values: config may not set them too, or one of the
two would be ignored without a word.
*/}}
{{- define "sluice.checkConfig" -}}
{{- $config := .Values.config }}
{{- range $key := list "auth" "modelStore" "models" "modelDir" "modelName" "shutdownTimeoutMs" "drainDelayMs" "plugins" }}
{{- if hasKey $config $key }}
{{- fail (printf "config.%s is set by the chart from its other values (docs/deployment.md lists which); remove it from config" $key) }}
{{- end }}
{{- end }}
{{- range $section := list "inference" "management" "metrics" }}
{{- if and (hasKey $config $section) (kindIs "map" (index $config $section)) }}
{{- fail (printf "config.%s: the chart sets the listeners (host 0.0.0.0, port from ports.*); remove it from config" $section) }}
{{- end }}
{{- end }}
{{- with $config.grpc }}
{{- range $key := list "enabled" "inference" "management" }}
{{- if hasKey $.Values.config.grpc $key }}
{{- fail (printf "config.grpc.%s is set by the chart (grpc.enabled, ports.grpc*); remove it from config" $key) }}
{{- end }}
{{- end }}
{{- end }}
{{- with $config.snapshot }}
{{- if hasKey $.Values.config.snapshot "file" }}
{{- fail "config.snapshot.file is set by the chart (/var/lib/sluice/snapshot.json, the writable state volume); remove it from config" }}
{{- end }}
{{- end }}
{{- if .Values.auth.sharedKeysSecret }}
{{- fail "auth.sharedKeysSecret: Sluice cannot take given API keys yet (token-auth makes its own keys per pod); leave it empty" }}
{{- end }}
{{- if include "sluice.usesAuth" (list . "jwt-auth") }}
{{- if and (not .Values.auth.jwt.existingSecret) (not .Values.auth.jwt.jwks) }}
{{- fail "auth: an API uses jwt-auth, so auth.jwt.jwks (the key set) or auth.jwt.existingSecret is needed" }}
{{- end }}
{{- if or (not .Values.auth.jwt.issuer) (not .Values.auth.jwt.audience) }}
{{- fail "auth: an API uses jwt-auth, so auth.jwt.issuer and auth.jwt.audience are needed" }}
{{- end }}
{{- end }}
{{- end }}

{{/* sluice.yaml: config, with the listeners, auth, model store, snapshot and drain the chart sets. */}}
{{- define "sluice.configYaml" -}}
{{- include "sluice.checkConfig" . }}
{{- $config := deepCopy .Values.config }}
{{- $_ := set $config "inference" (dict "host" "0.0.0.0" "port" (int .Values.ports.inference)) }}
{{- $_ = set $config "management" (dict "host" "0.0.0.0" "port" (int .Values.ports.management)) }}
{{- $_ = set $config "metrics" (dict "host" "0.0.0.0" "port" (int .Values.ports.metrics)) }}
{{- $grpc := deepCopy (default (dict) .Values.config.grpc) }}
{{- $_ = set $grpc "enabled" .Values.grpc.enabled }}
{{- $_ = set $grpc "inference" (dict "host" "0.0.0.0" "port" (int .Values.ports.grpcInference)) }}
{{- $_ = set $grpc "management" (dict "host" "0.0.0.0" "port" (int .Values.ports.grpcManagement)) }}
{{- $_ = set $config "grpc" $grpc }}
{{- $_ = set $config "auth" (dict "inference" .Values.auth.inference "management" .Values.auth.management "metrics" .Values.auth.metrics) }}
{{- $_ = set $config "modelStore" (include "sluice.modelStorePath" .) }}
{{- $_ = set $config "models" .Values.modelStore.models }}
{{- $snapshot := deepCopy (default (dict) .Values.config.snapshot) }}
{{- $_ = set $snapshot "file" "/var/lib/sluice/snapshot.json" }}
{{- $_ = set $config "snapshot" $snapshot }}
{{- $_ = set $config "shutdownTimeoutMs" (mul .Values.shutdown.timeoutSeconds 1000) }}
{{- $_ = set $config "drainDelayMs" (mul (int .Values.shutdown.notReadyDelaySeconds) 1000) }}
{{- $plugins := list (dict "name" "token-auth" "config" (dict "keyFile" "/var/lib/sluice/key_file.json")) }}
{{- if include "sluice.usesAuth" (list . "jwt-auth") }}
{{- $jwt := dict "jwksFile" "/etc/sluice-auth/jwks.json" "issuer" .Values.auth.jwt.issuer "audience" .Values.auth.jwt.audience }}
{{- $plugins = append $plugins (dict "name" "jwt-auth" "config" $jwt) }}
{{- end }}
{{- $_ = set $config "plugins" $plugins }}
{{- toYaml $config }}
{{- end }}
