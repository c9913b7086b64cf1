# subprocess.run as a .py export of the notebook's !cmd lines uses it
import subprocess

r = subprocess.run("echo one; exit 3", shell=True, capture_output=True, text=True)
print(r.returncode, r.stdout.splitlines(), r.stderr)
r = subprocess.run(["printf", "a\\nb\\n"], capture_output=True, text=True)
print(r.args, r.returncode, r.stdout.splitlines())
files = subprocess.run("ls stdlib_subprocess.py", shell=True, capture_output=True, text=True).stdout.splitlines()
print(files)
print(subprocess.run("exit 0", shell=True).returncode)
