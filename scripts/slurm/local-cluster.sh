#!/usr/bin/env bash
# local-cluster.sh: a one-node Slurm cluster on this machine, for trying and
# testing `smsim sweep --shard` as a job array (docs/guide.md).
#
#   sudo scripts/slurm/local-cluster.sh start   # install if needed, configure, start
#   sudo scripts/slurm/local-cluster.sh status
#   sudo scripts/slurm/local-cluster.sh stop
#
# It uses Debian's slurm-wlm and munge packages (installed with apt-get when
# missing), writes /etc/slurm/slurm.conf for this host only (refusing to
# replace a configuration it did not write), and starts munged, slurmctld
# and slurmd directly, without systemd, so it also works in a container.
# Run it as root. Logs: /var/log/slurm/.
set -euo pipefail

marker="# written by smsim scripts/slurm/local-cluster.sh"
conf=/etc/slurm/slurm.conf

die() { echo "local-cluster: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (it installs packages and starts daemons)"

install() {
	if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
		echo "local-cluster: installing slurm-wlm and munge"
		apt-get update -q
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge
	fi
}

start_munge() {
	if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
		return
	fi
	[ -s /etc/munge/munge.key ] || { dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null; }
	chown munge:munge /etc/munge/munge.key
	chmod 400 /etc/munge/munge.key
	mkdir -p /run/munge /var/log/munge /var/lib/munge
	chown munge:munge /run/munge /var/log/munge /var/lib/munge
	runuser -u munge -- /usr/sbin/munged
	for _ in $(seq 50); do
		munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && return
		sleep 0.1
	done
	die "munged did not start (see /var/log/munge/munged.log)"
}

configure() {
	if [ -f "$conf" ] && ! grep -qF "$marker" "$conf"; then
		die "$conf exists and was not written by this script; not replacing it"
	fi
	local host node
	host=$(hostname -s)
	getent hosts "$host" >/dev/null || die "hostname $host does not resolve (add it to /etc/hosts)"
	# slurmd -C prints this node's hardware as a NodeName line.
	node=$(slurmd -C | head -1)
	mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
	cat >"$conf" <<EOF
$marker
ClusterName=smsimlocal
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
$node State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

running() { [ -f "/run/$1.pid" ] && kill -0 "$(cat "/run/$1.pid")" 2>/dev/null; }

start() {
	install
	start_munge
	configure
	running slurmctld || slurmctld
	running slurmd || slurmd
	for _ in $(seq 100); do
		state=$(sinfo -h -o %T 2>/dev/null | head -1 || true)
		case "$state" in
		idle*|mixed*|allocated*) echo "local-cluster: up, node $(hostname -s) is $state"; sinfo; return ;;
		esac
		sleep 0.2
	done
	die "the node did not become idle (state '${state:-none}'; see /var/log/slurm/)"
}

stop() {
	for d in slurmd slurmctld; do
		if running "$d"; then
			kill "$(cat "/run/$d.pid")"
		fi
	done
	echo "local-cluster: stopped slurmd and slurmctld (munged keeps running)"
}

case "${1:-start}" in
start) start ;;
stop) stop ;;
status) sinfo && squeue ;;
*) die "usage: $0 start|stop|status" ;;
esac
