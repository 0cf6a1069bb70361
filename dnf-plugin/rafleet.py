# SPDX-License-Identifier: GPL-2.0
# rafleet's dnf plugin: the previous kernel of a rollout in progress is
# never removed, neither by installonly_limit nor by hand.
#
# While rafleet's rollout state (/var/lib/rafleet/state.json, schema
# rafleet-state/1, docs/state-json.md) is in phase staged, trial or
# promoted, its previous kernel is what `rafleet rollback --kernel` boots;
# in phase rolled-back it is what the host is going back to (the state is
# saved before the kexec or reboot), and once it runs dnf keeps it anyway.
# When a new kernel is installed beyond installonly_limit, dnf removes the
# oldest installed kernel that is not running, and after a promotion that
# is usually the previous one.  dnf itself protects only the running
# kernel (protect_running_kernel) and whole package names
# (protected_packages), so this plugin refuses, once dnf has resolved a
# transaction, any transaction that removes a package providing
# kernel-uname-r or kernel-modules-uname-r = that release, and says why.
# The next `rafleet stage` moves it to the kernel that stage runs on.
#
# A promoted kernel's predecessor stays kept until the next stage: with
# installonly_limit=3 the second kernel installed after a promotion would
# remove it, and the whole transaction (an upgrade of everything too) is
# refused; `dnf upgrade --exclude='kernel-rafleet*'` upgrades the rest.
#
# An unreadable state refuses every kernel removal: rafleet cannot say
# then which kernel a rollback needs.  `--disableplugin=rafleet`
# overrides for one command; enabled=0 in /etc/dnf/plugins/rafleet.conf
# for good.  With --installroot, the state is the root's.

import json
import os

import dnf
import dnf.exceptions
import dnf.transaction

STATE = '/var/lib/rafleet/state.json'
IN_PROGRESS = ('staged', 'trial', 'promoted', 'rolled-back')
KERNEL_PROVIDES = ('kernel-uname-r', 'kernel-modules-uname-r')
REMOVALS = (dnf.transaction.PKG_REMOVE, dnf.transaction.PKG_OBSOLETED)


def kernel_release(pkg):
    """The kernel release @pkg boots (its kernel-uname-r), or None."""
    for dep in pkg.provides:
        name, _, release = str(dep).partition(' = ')
        if name in KERNEL_PROVIDES and release:
            return release
    return None


def kept_release(path):
    """(release, why, phase): the kernel to keep, None for none; release
    is True when the state cannot be read (keep every kernel)."""
    try:
        with open(path, encoding='utf-8') as f:
            state = json.load(f)
    except FileNotFoundError:
        return None, None, None
    except (OSError, ValueError, RecursionError) as e:
        return True, '%s cannot be read (%s)' % (path, e), None
    if not isinstance(state, dict) or state.get('schema') != 'rafleet-state/1':
        return True, '%s is not a rafleet-state/1 document' % path, None
    phase = state.get('phase')
    previous = state.get('previous_kernel') or {}
    release = previous.get('release') if isinstance(previous, dict) else None
    if phase not in IN_PROGRESS or not isinstance(release, str) or not release:
        return None, None, None
    what = {
        'staged': '`rafleet rollback --kernel` stays on it',
        'trial': '`rafleet rollback --kernel` boots it',
        'promoted': '`rafleet rollback --kernel` demotes to it',
        'rolled-back': 'the host is going back to it',
    }[phase]
    return release, ('%s is the previous kernel of the rollout in progress '
                     '(phase %s): %s' % (release, phase, what)), phase


ADVICE = {
    'promoted': 'Stage the next kernel first (`rafleet stage`), which moves this '
                'to the kernel it runs on, or raise installonly_limit',
}


class RafleetKeep(dnf.Plugin):
    name = 'rafleet'

    def resolved(self):
        # dnf logs and forgets any other exception of a plugin: every
        # failure here refuses the transaction instead
        try:
            self._check()
        except dnf.exceptions.Error:
            raise
        except Exception as e:  # pylint: disable=broad-except
            raise dnf.exceptions.Error('rafleet: cannot tell which kernel a rollback '
                                       'needs (%r); refusing' % e) from e

    def _check(self):
        if self.base.transaction is None:
            return
        path = os.path.join(self.base.conf.installroot, STATE.lstrip('/'))
        keep, why, phase = kept_release(path)
        if keep is None:
            return
        removed = ((tsi.pkg, kernel_release(tsi.pkg)) for tsi in self.base.transaction
                   if tsi.action in REMOVALS)
        refused = sorted(str(pkg) for pkg, release in removed
                         if release is not None and (keep is True or release == keep))
        if refused:
            raise dnf.exceptions.Error(
                'rafleet: this transaction would remove %s, but %s. %s, '
                'or pass --disableplugin=rafleet.'
                % (', '.join(refused), why,
                   ADVICE.get(phase, 'Finish the rollout first or raise installonly_limit')))
