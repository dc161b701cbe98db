# SPDX-License-Identifier: GPL-2.0-or-later
# run.pl DOC.json ONLINE PAGESIZE ARGV...: the run facts (run, system) against
# what this process sees: the same machine, user, affinity, limits and
# virtualisation.
use strict; use warnings; use JSON::PP; use POSIX ();
my ($file, $online, $page, @argv) = @ARGV;
local $/; open(my $fh, "<", $file) or die "$file: $!"; my $d = JSON::PP->new->decode(<$fh>); $/ = "\n";
my ($n, @bad) = (0);
sub same { my ($p, $got, $want) = @_; $n++;
	my ($g, $w) = map { !defined $_ ? "null" : JSON::PP::is_bool($_) ? ($_ ? "true" : "false") : "$_" } ($got, $want);
	push @bad, "$p: got $g, want $w" if $g ne $w; }
sub ok { my ($p, $c) = @_; $n++; push @bad, $p unless $c; }
sub file1 { open(my $f, "<", $_[0]) or return undef; my $l = <$f>; chomp $l if defined $l; $l }
my %status; open(my $s, "<", "/proc/self/status") or die; while (<$s>) { $status{$1} = $2 if /^(\w+):\s*(.*?)\s*$/ }
my %mem; open(my $m, "<", "/proc/meminfo") or die; while (<$m>) { $mem{$1} = $2 if /^(\w+):\s*(\d+) kB/ }
my $list = $status{Cpus_allowed_list}; my $count = 0;
for (split /,/, $list) { my ($a, $b) = split /-/; $count += (defined $b ? $b : $a) - $a + 1; }
my @docs = ($d, map { $d->{parts}{$_} } sort keys %{$d->{parts} || {}});
for my $x (@docs) { next unless $x; my $r = $x->{run}; my $sy = $x->{system}; my $p = $x->{command};
	my @u = POSIX::uname();
	same("$p run.hostname", $r->{hostname}, $u[1]); same("$p run.kernel.release", $r->{kernel}{release}, $u[2]);
	same("$p run.kernel.version", $r->{kernel}{version}, $u[3]); same("$p run.kernel.machine", $r->{kernel}{machine}, $u[4]);
	same("$p system.kernel_release", $sy->{kernel_release}, $u[2]); same("$p system.machine", $sy->{machine}, $u[4]);
	same("$p system.hostname", $sy->{hostname}, $u[1]);
	same("$p run.cpu.online", $r->{cpu}{online}, $online); same("$p system.cpus_online", $sy->{cpus_online}, $online);
	same("$p run.cpu.allowed", $r->{cpu}{allowed}, $count); same("$p run.cpu.allowed_list", $r->{cpu}{allowed_list}, $list);
	same("$p system.cpus_allowed", $sy->{cpus_allowed}, $list);
	same("$p run.memory.total_bytes (MemTotal x 1024)", $r->{memory}{total_bytes}, $mem{MemTotal} * 1024);
	my $av = $r->{memory}{available_bytes};
	ok("$p run.memory.available_bytes ($av) a whole number of KiB, within MemTotal",
		defined $av && $av % 1024 == 0 && $av > 0 && $av <= $mem{MemTotal} * 1024);
	same("$p system.page_size_bytes", $sy->{page_size_bytes}, $page);
	same("$p system.pipe_buf_bytes", $sy->{pipe_buf_bytes}, 4096);
	pipe(my $pr, my $pw) or die; my $sz = fcntl($pr, 1032, 0);   # F_GETPIPE_SZ
	same("$p system.pipe_default_size_bytes", $sy->{pipe_default_size_bytes}, $sz + 0);
	for (["pipe_max_size_bytes", "pipe-max-size"], ["pipe_user_pages_soft", "pipe-user-pages-soft"], ["pipe_user_pages_hard", "pipe-user-pages-hard"]) {
		same("$p system.$_->[0]", $sy->{$_->[0]}, file1("/proc/sys/fs/$_->[1]")); }
	same("$p run.user.uid", $r->{user}{uid}, $<); same("$p run.user.euid", $r->{user}{euid}, $>);
	same("$p run.user.gid", $r->{user}{gid}, (split / /, $()[0]); same("$p run.user.egid", $r->{user}{egid}, (split / /, $))[0]);
	my @capn = qw(CHOWN DAC_OVERRIDE DAC_READ_SEARCH FOWNER FSETID KILL SETGID SETUID SETPCAP LINUX_IMMUTABLE
		NET_BIND_SERVICE NET_BROADCAST NET_ADMIN NET_RAW IPC_LOCK IPC_OWNER SYS_MODULE SYS_RAWIO SYS_CHROOT
		SYS_PTRACE SYS_PACCT SYS_ADMIN SYS_BOOT SYS_NICE SYS_RESOURCE SYS_TIME SYS_TTY_CONFIG MKNOD LEASE
		AUDIT_WRITE AUDIT_CONTROL SETFCAP MAC_OVERRIDE MAC_ADMIN SYSLOG WAKE_ALARM BLOCK_SUSPEND AUDIT_READ
		PERFMON BPF CHECKPOINT_RESTORE);
	my $eff = $status{CapEff}; my @caps;
	for my $bit (0 .. 63) { my $w = hex(substr($eff, -8 * (1 + int($bit / 32)), 8)); next unless ($w >> ($bit % 32)) & 1;
		push @caps, $bit < @capn ? "CAP_$capn[$bit]" : "cap_$bit"; }
	same("$p run.user.capabilities (CapEff $eff)", join(",", @{$r->{user}{capabilities}}), join(",", @caps));
	my $re = qr/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
	ok("$p run.start <= run.end, RFC 3339 ($r->{start}, $r->{end})", $r->{start} =~ $re && $r->{end} =~ $re && $r->{start} le $r->{end});
	same("$p run.pipebench.version", $r->{pipebench}{version}, $x->{version});
	same("$p run.pipebench.argv", join(" ", @{$r->{pipebench}{argv}}), join(" ", @argv));
	my @la = split / /, file1("/proc/loadavg");
	ok("$p run.loadavg: three load averages (" . join(" ", map { $_ // "null" } @{$r->{loadavg}}{qw(1m 5m 15m)}) . ")",
		!grep { !defined $_ || $_ !~ /^[0-9.e+-]+$/ || $_ < 0 } @{$r->{loadavg}}{qw(1m 5m 15m)});
	# Virtualisation from the same files: the CPU's hypervisor flag, Xen's
	# type, the DMI vendor and product names, a container engine's marker.
	my ($virt, $hv, $ct);
	if (open(my $ci, "<", "/proc/cpuinfo")) { while (<$ci>) { if (/^flags\s*:\s*(.*)$/) { $virt = (" $1 " =~ / hypervisor /) ? 1 : 0; last } } }
	my $ht = file1("/sys/hypervisor/type"); if (defined $ht && $ht ne "") { $hv = $ht; $virt = 1 }
	my @dmi = (["QEMU", "qemu"], ["KVM", "kvm"], ["VMware", "vmware"], ["VirtualBox", "oracle"], ["innotek", "oracle"],
		["Xen", "xen"], ["Bochs", "bochs"], ["Amazon EC2", "amazon"], ["Google Compute Engine", "google"],
		["Parallels", "parallels"], ["BHYVE", "bhyve"], ["Virtual Machine", "microsoft"]);
	for my $f ("sys_vendor", "product_name") { last if $hv; my $v = file1("/sys/class/dmi/id/$f"); next unless defined $v && $v ne "";
		for my $m (@dmi) { if (index($v, $m->[0]) >= 0) { $hv = $m->[1]; $virt = 1; last } } }
	$ct = -e "/run/.containerenv" ? "podman" : -e "/.dockerenv" ? "docker" : undef;
	same("$p run.virtualization.virtualized", $r->{virtualization}{virtualized}, defined $virt ? ($virt ? "true" : "false") : undef);
	same("$p run.virtualization.hypervisor", $r->{virtualization}{hypervisor}, $hv);
	same("$p run.virtualization.container", $r->{virtualization}{container}, $ct);
	my %os; if (open(my $o, "<", -e "/etc/os-release" ? "/etc/os-release" : "/usr/lib/os-release")) {
		while (<$o>) { $os{$1} = $2 if /^(ID|VERSION_ID|PRETTY_NAME)=(.*)$/ } }
	for (values %os) { s/^"(.*)"$/$1/; s/^'(.*)'$/$1/; s/\\(.)/$1/g; }
	same("$p run.os.id", $r->{os}{id}, $os{ID}); same("$p run.os.version_id", $r->{os}{version_id}, $os{VERSION_ID});
	same("$p run.os.pretty_name", $r->{os}{pretty_name}, $os{PRETTY_NAME});
}
print "$_\n" for @bad;
print "no figure checked\n" unless $n;
print STDERR "checked $n\n" if $ENV{FIGS_N};
